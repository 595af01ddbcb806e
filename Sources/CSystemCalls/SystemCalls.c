#define _GNU_SOURCE
#include "SystemCalls.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

static volatile sig_atomic_t received_signal = 0;
static pthread_t main_thread;

// The pending temporary (the latest one, when several threads write files): set under
// `pending_lock` by any thread, read by the handler only while `pending_valid` (a lock-free atomic,
// so the handler may read it) says the path is whole.
static char pending_path[4096];
static atomic_int pending_valid = 0;
static pthread_mutex_t pending_lock = PTHREAD_MUTEX_INITIALIZER;

static void on_interrupt(int signal_number) {
    // A process-directed signal may land on any thread; a blocking read in the main thread only
    // returns EINTR if the main thread takes it.
    if (!pthread_equal(pthread_self(), main_thread)) {
        pthread_kill(main_thread, signal_number);
        return;
    }
    if (received_signal == 0) {
        received_signal = signal_number;
        return;
    }
    if (atomic_load(&pending_valid)) unlink(pending_path);
    signal(signal_number, SIG_DFL);
    raise(signal_number);
}

void sy_install_interrupt_handlers(void) {
    main_thread = pthread_self();
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_interrupt;
    sigemptyset(&action.sa_mask);
    action.sa_flags = 0;  // no SA_RESTART: blocking reads return EINTR
    sigaction(SIGINT, &action, NULL);
    sigaction(SIGTERM, &action, NULL);
}

int sy_interrupt_signal(void) { return received_signal; }

void sy_set_pending_temporary(const char *path) {
    pthread_mutex_lock(&pending_lock);
    atomic_store(&pending_valid, 0);
    if (path != NULL && strlen(path) < sizeof pending_path) {
        memcpy(pending_path, path, strlen(path) + 1);
        atomic_store(&pending_valid, 1);
    }
    pthread_mutex_unlock(&pending_lock);
}

int sy_rename_noreplace(const char *from, const char *to) {
    if (renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE) == 0) return 0;
    if (errno != EINVAL && errno != ENOSYS && errno != ENOTSUP) return -1;
    if (link(from, to) != 0) return -1;
    unlink(from);
    return 0;
}

int sy_affinity_cpu_count(void) {
#ifdef __linux__
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) != 0) return 0;
    return CPU_COUNT(&set);
#else
    return 0;
#endif
}

void sy_limit_malloc_arenas(void) {
#ifdef __GLIBC__
    mallopt(M_ARENA_MAX, 1);
#endif
}

void sy_name_thread(const char *name) {
#ifdef __GLIBC__
    char truncated[16];
    snprintf(truncated, sizeof truncated, "%s", name);
    pthread_setname_np(pthread_self(), truncated);
#else
    (void)name;
#endif
}
