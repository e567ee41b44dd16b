// SPDX-License-Identifier: MIT
// Under mpirun -np 2 (label mpi): a rank that waits for another in the cluster room's calls
// (the tuner's chain sum, a barrier) sleeps instead of polling at full speed. Rank 0 works
// (sleeps) WAIT_S seconds before each call; rank 1 waits in it, and its CPU time (user + sys,
// getrusage: not the wall clock) over the wait must stay under a tenth of the wait. Open MPI's
// blocking calls spent the whole wait polling (a core busy for nothing: issue 23, section 7).
#include <stdio.h>
#include <sys/resource.h>
#include <time.h>

#include "cluster.h"

enum { WAIT_MS = 1500 };

static double cpu_seconds(void) {
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return (double)(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           (double)(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

static void add_one(double *acc, void *arg) {
    (void)arg;
    acc[0] += 1;
}

// Rank 0 sleeps WAIT_MS first; returns rank 1's CPU seconds spent in call (0 on rank 0).
static double waited(int rank, void (*call)(void)) {
    if (rank == 0) {
        struct timespec ts = {WAIT_MS / 1000, (long)(WAIT_MS % 1000) * 1000000};
        nanosleep(&ts, NULL);
    }
    double t0 = cpu_seconds();
    call();
    return rank == 0 ? 0 : cpu_seconds() - t0;
}

static void chain_sum(void) {
    double acc = 0;
    cluster_chain_sum(&acc, 1, add_one, NULL);
    if (acc != 2)
        fprintf(stderr, "test_cluster_wait: chain sum %g, not 2\n", acc);
}

int main(int argc, char **argv) {
    ErrorInfo err;
    if (cluster_init(&argc, &argv, &err) != STATUS_OK) {
        fprintf(stderr, "test_cluster_wait: %s\n", err.msg);
        return 1;
    }
    ClusterPart self = cluster_self();
    int rank = (int)self.index - 1, failed = 0;
    if (self.count != 2) {
        fprintf(stderr, "test_cluster_wait: run under mpirun -np 2 (got %u ranks)\n", self.count);
        failed = 1;
    } else {
        double chain = waited(rank, chain_sum), barrier = waited(rank, cluster_barrier);
        if (rank == 1) {
            printf("rank 1 waited %.1f s twice: CPU %.3f s in the chain sum, %.3f s in the "
                   "barrier\n",
                   WAIT_MS / 1000.0, chain, barrier);
            failed = chain > WAIT_MS / 10000.0 || barrier > WAIT_MS / 10000.0;
            if (failed)
                fprintf(stderr, "test_cluster_wait: a waiting rank used over a tenth of a core\n");
        }
    }
    cluster_finish();
    return failed;
}
