// The process's arguments for Embedded Swift, which has no `CommandLine`. glibc calls each
// .init_array function with (argc, argv, envp) before main; we keep the two we need. musl calls
// them without arguments, so the static build (scripts/cross-build, LOADERD_STATIC) links with
// `--wrap=main` instead: the C library's call of main reaches __wrap_main, which saves them and
// calls the program's own main.
#include "CLinux.h"

static int saved_argc;
static char **saved_argv;

static void loaderd_save_arguments(int argc, char **argv, char **envp) {
    (void)envp;
    saved_argc = argc;
    saved_argv = argv;
}

#ifdef LOADERD_STATIC
int __real_main(int argc, char **argv);
int __wrap_main(int argc, char **argv);
int __wrap_main(int argc, char **argv) {
    loaderd_save_arguments(argc, argv, 0);
    return __real_main(argc, argv);
}
#else
__attribute__((section(".init_array"), used))
static void (*const loaderd_save_arguments_entry)(int, char **, char **) = loaderd_save_arguments;
#endif

int loaderd_argument_count(void) { return saved_argc; }
const char *loaderd_argument(int index) {
    return (index >= 0 && index < saved_argc) ? saved_argv[index] : (const char *)0;
}

// systemd spares processes whose argv[0] starts with '@' (run by root) when it kills what is left
// of the initrd at the switch to the real root, and at the end of shutdown; the first byte of the
// words the kernel shows in /proc/PID/cmdline is this string's. Returns 0, or -1 with no argv[0].
int loaderd_mark_argv0_at(void) {
    if (saved_argc < 1 || saved_argv[0] == 0 || saved_argv[0][0] == 0) return -1;
    saved_argv[0][0] = '@';
    return 0;
}
