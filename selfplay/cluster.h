// SPDX-License-Identifier: MIT
// The cluster room: a run split into parts, "part I of K", either named on the command line
// (--part I/K: a Slurm job array, no MPI needed) or given by MPI (rank r of R plays part
// r+1 of R). The only file that calls MPI; without HANSU_MPI every process is part 1 of 1 and
// the collective calls do nothing.
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "status.h"

/// One part of a split run: index 1..count.
typedef struct ClusterPart {
    unsigned index;
    unsigned count;
} ClusterPart;

/// Parses "I/K" (decimal, 1 <= I <= K <= max) for the flag named flag. STATUS_SYNTAX naming
/// flag and text when it is not of that form ("--part: 'x' is not I/K, e.g. 1/4"),
/// STATUS_RANGE when I or K is out of range.
Status cluster_parse_part(const char *flag, const char *text, unsigned max, ClusterPart *out,
                          ErrorInfo *err);

/// Starts MPI when built with it (MPI_Init_thread, MPI_THREAD_FUNNELED: only the main thread
/// calls MPI); nothing without. STATUS_IO when MPI cannot start.
Status cluster_init(int *argc, char ***argv, ErrorInfo *err);

/// Ends MPI when cluster_init started it (every rank must call it); nothing otherwise.
void cluster_finish(void);

/// The part that MPI gives this process: rank + 1 of the number of ranks; 1 of 1 without MPI.
ClusterPart cluster_self(void);

/// True when built with MPI (HANSU_MPI).
bool cluster_has_mpi(void);

/// Sums v[0..n) over all ranks in place, every rank getting the sum (MPI_Allreduce; the
/// integers make the order irrelevant; any n, in pieces of 2^26). Every rank must call it;
/// nothing on one process.
void cluster_sum_u64(uint64_t *v, size_t n);

/// The largest of v[0..n) over all ranks, in place on every rank (as cluster_sum_u64).
void cluster_max_f64(double *v, size_t n);

/// Adds this rank's share of a sum to acc (n doubles) for cluster_chain_sum.
typedef void (*ClusterAddFn)(double *acc, void *arg);

/// A sum over the ranks in rank order, with the very additions one process makes adding the
/// shares one after another (MPI_Allreduce leaves the order to the library): rank r receives
/// acc, the running sum of ranks 0..r-1 (rank 0 starts from the acc it is given, zeros), adds
/// its share with add(acc, arg) and passes it on to rank r+1; the last rank's total is then
/// broadcast, so every rank returns with it. Every rank must call it. One process: add only.
void cluster_chain_sum(double *acc, size_t n, ClusterAddFn add, void *arg);

/// Waits for every rank (MPI_Barrier); nothing on one process.
void cluster_barrier(void);

/// Sends len bytes to rank dest (0-based) with tag (MPI_Send of MPI_BYTE): messages of one
/// tag from one sender arrive in the order sent. Only the thread that started MPI calls it.
/// Nothing on one process.
void cluster_send(int dest, int tag, const void *buf, size_t len);

/// True when a message with tag is waiting (from any rank, MPI_Iprobe; does not block):
/// *source gets its 0-based sender and *len its size in bytes. False on one process.
bool cluster_poll(int tag, int *source, size_t *len);

/// Receives the message of len bytes that cluster_poll announced from source with tag (or
/// waits for it, MPI_Recv). Nothing on one process.
void cluster_recv(int source, int tag, void *buf, size_t len);

/// Copies len bytes from rank root's buf to every rank's (MPI_Bcast); nothing on one process.
void cluster_bcast(void *buf, size_t len, int root);
