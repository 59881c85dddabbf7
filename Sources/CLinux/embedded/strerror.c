// The error texts of the static build in the words of the GNU C library, which every other Linux
// program, the man pages and the host build (and its tests) use. The static build links musl,
// whose texts for these errors are terser ("Address in use", "No file descriptors available",
// "Not a tty"); a message that reads "cannot bind the Plymouth socket: Address already in use"
// should read the same whichever build a user runs. Errors not listed read as musl words them
// (identically, for the rest of those a daemon meets). Only scripts/cross-build compiles this
// file; loaderd_libc.h declares it for the static build and maps it to strerror elsewhere.
#include <errno.h>
#include <string.h>

const char *loaderd_strerror(int e);

const char *loaderd_strerror(int e) {
    switch (e) {
    case EIO: return "Input/output error";
    case ECHILD: return "No child processes";
    case ENOMEM: return "Cannot allocate memory";
    case EBUSY: return "Device or resource busy";
    case EXDEV: return "Invalid cross-device link";
    case EMFILE: return "Too many open files";
    case ENOTTY: return "Inappropriate ioctl for device";
    case ESPIPE: return "Illegal seek";
    case EDOM: return "Numerical argument out of domain";
    case ERANGE: return "Numerical result out of range";
    case EDEADLK: return "Resource deadlock avoided";
    case ENAMETOOLONG: return "File name too long";
    case ELOOP: return "Too many levels of symbolic links";
    case ETIME: return "Timer expired";
    case EOVERFLOW: return "Value too large for defined data type";
    case EILSEQ: return "Invalid or incomplete multibyte or wide character";
    case ENOTSOCK: return "Socket operation on non-socket";
    case EMSGSIZE: return "Message too long";
    case EOPNOTSUPP: return "Operation not supported";
    case EADDRINUSE: return "Address already in use";
    case EADDRNOTAVAIL: return "Cannot assign requested address";
    case ENETUNREACH: return "Network is unreachable";
    case ENETRESET: return "Network dropped connection on reset";
    case ECONNABORTED: return "Software caused connection abort";
    case EISCONN: return "Transport endpoint is already connected";
    case ENOTCONN: return "Transport endpoint is not connected";
    case ESHUTDOWN: return "Cannot send after transport endpoint shutdown";
    case ETIMEDOUT: return "Connection timed out";
    case EHOSTUNREACH: return "No route to host";
    case EINPROGRESS: return "Operation now in progress";
    case EDQUOT: return "Disk quota exceeded";
    case EOWNERDEAD: return "Owner died";
    default: return strerror(e);
    }
}
