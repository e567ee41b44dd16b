// SPDX-License-Identifier: MIT
// The cluster room: part I of K from the command line, and the few MPI calls (start, rank,
// sums, barrier, messages, end) that the front ends and the tuner need, compiled to nothing without
// HANSU_MPI. Every wait sleeps between tests (wait_idle) instead of MPI's busy polling.
#include "cluster.h"

#include <string.h>
#include <time.h>

#include "cli.h"

#ifdef HANSU_MPI
#include <mpi.h>
#endif

Status cluster_parse_part(const char *flag, const char *text, unsigned max, ClusterPart *out,
                          ErrorInfo *err) {
    const char *slash = strchr(text, '/');
    char first[32];
    size_t len = slash ? (size_t)(slash - text) : 0;
    if (!slash || len == 0 || len >= sizeof first || !slash[1])
        return error_set(err, STATUS_SYNTAX, "%s: '%s' is not I/K (part I of K, e.g. 1/4)", flag,
                         text);
    memcpy(first, text, len);
    first[len] = '\0';
    uint64_t i, k;
    ErrorInfo e;
    if (cli_parse_u64(flag, first, UINT64_MAX, &i, &e) != STATUS_OK ||
        cli_parse_u64(flag, slash + 1, UINT64_MAX, &k, &e) != STATUS_OK)
        return error_set(err, STATUS_SYNTAX, "%s: '%s' is not I/K (part I of K, e.g. 1/4)", flag,
                         text);
    if (k < 1 || k > max)
        return error_set(err, STATUS_RANGE, "%s %s: K must be in 1..%u", flag, text, max);
    if (i < 1 || i > k)
        return error_set(err, STATUS_RANGE, "%s %s: I must be in 1..%llu (parts count from 1)",
                         flag, text, (unsigned long long)k);
    *out = (ClusterPart){.index = (unsigned)i, .count = (unsigned)k};
    return STATUS_OK;
}

bool cluster_has_mpi(void) {
#ifdef HANSU_MPI
    return true;
#else
    return false;
#endif
}

#ifdef HANSU_MPI

// True between cluster_init and cluster_finish (MPI keeps the state: no global of ours).
static bool mpi_running(void) {
    int started = 0, ended = 0;
    MPI_Initialized(&started);
    MPI_Finalized(&ended);
    return started && !ended;
}

// Waits for request r without spinning: Open MPI's blocking calls poll the network at full
// speed while they wait, so a rank waiting for the others (the tuner's chain sum, every batch)
// burnt a core doing nothing. Tests, then sleeps, 10 us at first, doubling up to 1 ms: a short
// wait ends within about its own length, a long one costs a test a millisecond.
static void wait_idle(MPI_Request *r) {
    long ns = 10000;
    for (int done = 0; MPI_Test(r, &done, MPI_STATUS_IGNORE) == MPI_SUCCESS && !done;) {
        struct timespec ts = {0, ns};
        nanosleep(&ts, NULL);
        ns = ns < 1000000 ? ns * 2 : 1000000;
    }
}

Status cluster_init(int *argc, char ***argv, ErrorInfo *err) {
    int provided = 0;
    if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS)
        return error_set(err, STATUS_IO, "MPI_Init_thread failed");
    if (provided < MPI_THREAD_FUNNELED) {
        MPI_Finalize();
        return error_set(err, STATUS_IO, "MPI gives no thread support (MPI_THREAD_FUNNELED)");
    }
    return STATUS_OK;
}

void cluster_finish(void) {
    if (mpi_running())
        MPI_Finalize();
}

ClusterPart cluster_self(void) {
    int rank = 0, size = 1;
    if (mpi_running()) {
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        MPI_Comm_size(MPI_COMM_WORLD, &size);
    }
    return (ClusterPart){.index = (unsigned)rank + 1, .count = (unsigned)size};
}

void cluster_sum_u64(uint64_t *v, size_t n) {
    enum { CHUNK = 1 << 26 }; // MPI counts are ints: long vectors go in pieces
    for (size_t at = 0; mpi_running() && at < n; at += CHUNK) {
        MPI_Request r;
        MPI_Iallreduce(MPI_IN_PLACE, v + at, (int)(n - at < CHUNK ? n - at : CHUNK), MPI_UINT64_T,
                       MPI_SUM, MPI_COMM_WORLD, &r);
        wait_idle(&r);
    }
}

void cluster_max_f64(double *v, size_t n) {
    MPI_Request r;
    if (mpi_running() && n) {
        MPI_Iallreduce(MPI_IN_PLACE, v, (int)n, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD, &r);
        wait_idle(&r);
    }
}

void cluster_chain_sum(double *acc, size_t n, ClusterAddFn add, void *arg) {
    ClusterPart self = cluster_self();
    if (self.count == 1) {
        add(acc, arg);
        return;
    }
    int rank = (int)self.index - 1, size = (int)self.count;
    enum { TAG = 15 };
    MPI_Request r;
    if (rank > 0) {
        MPI_Irecv(acc, (int)n, MPI_DOUBLE, rank - 1, TAG, MPI_COMM_WORLD, &r);
        wait_idle(&r);
    }
    add(acc, arg);
    if (rank + 1 < size) {
        MPI_Isend(acc, (int)n, MPI_DOUBLE, rank + 1, TAG, MPI_COMM_WORLD, &r);
        wait_idle(&r);
    }
    MPI_Ibcast(acc, (int)n, MPI_DOUBLE, size - 1, MPI_COMM_WORLD, &r);
    wait_idle(&r);
}

void cluster_barrier(void) {
    MPI_Request r;
    if (mpi_running()) {
        MPI_Ibarrier(MPI_COMM_WORLD, &r);
        wait_idle(&r);
    }
}

void cluster_send(int dest, int tag, const void *buf, size_t len) {
    MPI_Request r;
    if (mpi_running()) {
        MPI_Isend(buf, (int)len, MPI_BYTE, dest, tag, MPI_COMM_WORLD, &r);
        wait_idle(&r);
    }
}

bool cluster_poll(int tag, int *source, size_t *len) {
    int flag = 0, count = 0;
    MPI_Status status;
    if (!mpi_running() || MPI_Iprobe(MPI_ANY_SOURCE, tag, MPI_COMM_WORLD, &flag, &status) || !flag)
        return false;
    MPI_Get_count(&status, MPI_BYTE, &count);
    *source = status.MPI_SOURCE;
    *len = (size_t)count;
    return true;
}

void cluster_recv(int source, int tag, void *buf, size_t len) {
    MPI_Request r;
    if (mpi_running()) {
        MPI_Irecv(buf, (int)len, MPI_BYTE, source, tag, MPI_COMM_WORLD, &r);
        wait_idle(&r);
    }
}

void cluster_bcast(void *buf, size_t len, int root) {
    MPI_Request r;
    if (mpi_running() && len) {
        MPI_Ibcast(buf, (int)len, MPI_BYTE, root, MPI_COMM_WORLD, &r);
        wait_idle(&r);
    }
}

#else

Status cluster_init(int *argc, char ***argv, ErrorInfo *err) {
    (void)argc, (void)argv, (void)err;
    return STATUS_OK;
}

void cluster_finish(void) {}

ClusterPart cluster_self(void) { return (ClusterPart){.index = 1, .count = 1}; }

void cluster_sum_u64(uint64_t *v, size_t n) { (void)v, (void)n; }

void cluster_max_f64(double *v, size_t n) { (void)v, (void)n; }

void cluster_chain_sum(double *acc, size_t n, ClusterAddFn add, void *arg) {
    (void)n;
    add(acc, arg);
}

void cluster_barrier(void) {}

void cluster_send(int dest, int tag, const void *buf, size_t len) {
    (void)dest, (void)tag, (void)buf, (void)len;
}

bool cluster_poll(int tag, int *source, size_t *len) {
    (void)tag, (void)source, (void)len;
    return false;
}

void cluster_recv(int source, int tag, void *buf, size_t len) {
    (void)source, (void)tag, (void)buf, (void)len;
}

void cluster_bcast(void *buf, size_t len, int root) { (void)buf, (void)len, (void)root; }

#endif
