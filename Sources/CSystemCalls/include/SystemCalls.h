// The few POSIX calls that Swift cannot make safely itself: a signal handler (which may only touch
// async-signal-safe state), and renameat2 and sched_getaffinity, which glibc declares only under
// _GNU_SOURCE.
#pragma once

/// Installs handlers for SIGINT and SIGTERM that record the first signal, so that the program can
/// finish the line it is writing, remove its temporaries and exit 128 + signal. The handlers do not
/// restart interrupted system calls: a blocking read returns EINTR and its caller checks
/// `sy_interrupt_signal`. A second signal removes the pending temporary file, if any, and ends the
/// process at once by the signal's default action.
void sy_install_interrupt_handlers(void);

/// The first SIGINT or SIGTERM received since `sy_install_interrupt_handlers`, or 0.
int sy_interrupt_signal(void);

/// Names the temporary file being written (NULL: none), for a second signal to remove. The path is
/// copied; one at a time.
void sy_set_pending_temporary(const char *path);

/// Renames `from` to `to` unless `to` exists (then -1 with errno EEXIST), atomically. On a file
/// system without RENAME_NOREPLACE it falls back to link + unlink, which is atomic as well.
int sy_rename_noreplace(const char *from, const char *to);

/// The CPUs in the calling thread's affinity mask (`taskset`, a container's cpuset), or 0 where it
/// cannot be read (not Linux).
int sy_affinity_cpu_count(void);

/// Makes glibc's allocator keep one arena for all threads (`M_ARENA_MAX` 1), where each thread's
/// would otherwise reserve 64 MiB of address space: for a process under an address-space limit.
/// Does nothing where the C library is not glibc.
void sy_limit_malloc_arenas(void);

/// Names the calling thread (`pthread_setname_np`, at most 15 bytes are kept), as `top -H` and
/// debuggers show it; does nothing where that call is missing.
void sy_name_thread(const char *name);
