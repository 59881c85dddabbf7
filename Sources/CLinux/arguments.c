// The process's arguments for Embedded Swift, which has no `CommandLine`. glibc calls each
// .init_array function with (argc, argv, envp) before main; we keep the two we need.
#include "CLinux.h"

static int saved_argc;
static char **saved_argv;

static void loaderd_save_arguments(int argc, char **argv, char **envp) {
    (void)envp;
    saved_argc = argc;
    saved_argv = argv;
}

__attribute__((section(".init_array"), used))
static void (*const loaderd_save_arguments_entry)(int, char **, char **) = loaderd_save_arguments;

int loaderd_argument_count(void) { return saved_argc; }
const char *loaderd_argument(int index) {
    return (index >= 0 && index < saved_argc) ? saved_argv[index] : (const char *)0;
}
