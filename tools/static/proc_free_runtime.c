// Linked into `make static`'s dist/swift-yolo only (Makefile, STATIC_LINK_FLAGS), never into the
// normal build: what a statically linked glibc program needs so that the Swift runtime works without
// /proc (an empty chroot, a `FROM scratch` container run without /proc, a minimal initramfs).
//
// The Swift 6.3 runtime on Linux learns two things from /proc:
//
// 1. CommandLine.argc and argv. It finds argv by reading /proc/self/maps to locate the stack
//    (stdlib CommandLine.cpp, ArgvGrabber); without /proc, CommandLine.argc is 0 and swift-yolo
//    traps in `1..<argc`. glibc calls every .init_array function with (argc, argv, envp), so the
//    constructor below hands them to the runtime's own override, _swift_stdlib_overrideUnsafeArgvArgc.
//    (A dynamically linked Swift program has the same limitation; only this binary gets the fix.)
//
// 2. Its own path (Paths.cpp, _swift_initRuntimePath), which a static initializer asks for before
//    main (Backtrace.cpp, to look for the swift-backtrace helper next to the runtime). It calls
//    dladdr, which in a statically linked glibc program finds nothing, falls back to
//    readlink("/proc/self/exe"), and without /proc aborts with "Unable to obtain Swift runtime
//    path". The link wraps dladdr (-Wl,--wrap=dladdr): where glibc's finds nothing for an address
//    inside this executable, __wrap_dladdr answers with the executable's path: /proc/self/exe when
//    it can be read (what the runtime would have used), else the kernel's AT_EXECFN made absolute.
//    No swift-backtrace lies beside dist/swift-yolo, so crash backtraces stay off either way.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

extern void _swift_stdlib_overrideUnsafeArgvArgc(char **argv, int argc);

__attribute__((constructor(101), used))
static void swiftyolo_capture_arguments(int argc, char **argv, char **envp) {
    (void)envp;
    if (argv != NULL && argc > 0) _swift_stdlib_overrideUnsafeArgvArgc(argv, argc);
}

extern int __real_dladdr(const void *address, Dl_info *info);

// Linker-defined: the first byte of this executable's ELF header and the end of its image (.bss).
extern const char __ehdr_start[];
extern const char _end[];

static pthread_once_t executable_path_once = PTHREAD_ONCE_INIT;
static char executable_path[PATH_MAX];

static void find_executable_path(void) {
    ssize_t length = readlink("/proc/self/exe", executable_path, sizeof executable_path - 1);
    if (length > 0) { executable_path[length] = 0; return; }
    const char *name = (const char *)getauxval(AT_EXECFN);
    if (name == NULL || *name == 0) name = "swift-yolo";
    executable_path[0] = 0;
    if (name[0] != '/' && getcwd(executable_path, sizeof executable_path - 2) != NULL
        && strcmp(executable_path, "/") != 0) {
        strcat(executable_path, "/");
    } else if (name[0] != '/') {
        strcpy(executable_path, "/");
    }
    strncat(executable_path, name, sizeof executable_path - strlen(executable_path) - 1);
}

int __wrap_dladdr(const void *address, Dl_info *info) {
    int found = __real_dladdr(address, info);
    if (found || info == NULL) return found;
    const char *byte = (const char *)address;
    if (byte < __ehdr_start || byte >= _end) return 0;
    pthread_once(&executable_path_once, find_executable_path);
    info->dli_fname = executable_path;
    info->dli_fbase = (void *)__ehdr_start;
    info->dli_sname = NULL;
    info->dli_saddr = NULL;
    return 1;
}
