// SPDX-License-Identifier: MIT
// A UCI engine run as a child process: fork/exec over pipes, line I/O with poll deadlines.
#define _GNU_SOURCE
#include "uci_child.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cecp_child.h"
#include "timeman.h"

struct UciChild {
    EngineSpec spec;
    pid_t pid;   // 0 once reaped
    Cecp *cecp;  // a CECP engine's translator (proto=xboard); NULL: UCI
    int to_fd;   // our end of the engine's stdin
    int from_fd; // our end of the engine's stdout
    bool eof;
    int exit_status; // waitpid status once reaped, -1 before
    size_t len;      // bytes waiting in buf
    char buf[ENGINE_LINE_MAX * 2];
    bool has_variant;                   // the `uci` reply offered a UCI_Variant option
    char variants[ENGINE_LINE_MAX / 2]; // its combo values, each followed by one space
};

const EngineSpec *child_spec(const UciChild *e) { return &e->spec; }

// Child side of the spawn: wire the pipes to stdin/stdout and exec. Never returns. An exec
// failure is reported as errno through err_fd, which is close-on-exec: the parent reads EOF
// when the exec succeeded.
static void exec_child(const EngineSpec *spec, int in_fd, int out_fd, int err_fd, pid_t parent) {
    char *argv[ENGINE_MAX_ARGS + 2];
    argv[0] = (char *)spec->cmd;
    for (int i = 0; i < spec->nargs; i++)
        argv[i + 1] = (char *)spec->args[i];
    argv[spec->nargs + 1] = NULL;
    // A process group of its own: a Ctrl-C at the terminal stops the match, which then ends
    // its engines; the engines must not see the signal and die mid-game (a false crash).
    setpgid(0, 0);
    // The engine dies with the match, even a SIGKILLed one (no stdin EOF reaches an engine
    // deep in a search). The signal follows the forking thread: each worker starts and stops
    // its own engines. A parent gone before the prctl is caught by the getppid check.
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent)
        _exit(127);
    dup2(in_fd, STDIN_FILENO);
    dup2(out_fd, STDOUT_FILENO);
    // Close every other descriptor so sibling engines' pipes do not leak into this child
    // (a leaked write end would hide another engine's EOF).
    for (int fd = 3; fd < 1024; fd++)
        if (fd != err_fd)
            close(fd);
    execvp(spec->cmd, argv);
    int code = errno;
    ssize_t w = write(err_fd, &code, sizeof code);
    (void)w;
    _exit(127);
}

// The errno an exec failure sent through fd, or 0 once the exec succeeded (EOF).
static int read_exec_errno(int fd) {
    int code = 0;
    for (;;) {
        ssize_t r = read(fd, &code, sizeof code);
        if (r < 0 && errno == EINTR)
            continue;
        return r == (ssize_t)sizeof code ? code : 0;
    }
}

// Reaps the engine (blocking when `block`), keeping its exit status. True once reaped.
static bool reap(UciChild *e, bool block) {
    int status;
    pid_t r;
    do
        r = waitpid(e->pid, &status, block ? 0 : WNOHANG);
    while (r < 0 && errno == EINTR);
    if (r == e->pid || (r < 0 && errno == ECHILD)) {
        if (r == e->pid)
            e->exit_status = status;
        e->pid = 0;
        return true;
    }
    return false;
}

static Status spawn(UciChild *e, ErrorInfo *err) {
    int in[2] = {-1, -1}, out[2] = {-1, -1}, ex[2] = {-1, -1};
    Status st = STATUS_OK;
    if (pipe2(in, O_CLOEXEC) != 0 || pipe2(out, O_CLOEXEC) != 0 || pipe2(ex, O_CLOEXEC) != 0) {
        st = error_set(err, STATUS_IO, "engine %s: pipe: %s", e->spec.name, strerror(errno));
        goto cleanup;
    }
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        st = error_set(err, STATUS_IO, "engine %s: fork: %s", e->spec.name, strerror(errno));
        goto cleanup;
    }
    if (pid == 0)
        exec_child(&e->spec, in[0], out[1], ex[1], parent);
    setpgid(pid, pid); // as the child does: whichever runs first, the group exists at once
    e->pid = pid;
    e->to_fd = in[1];
    e->from_fd = out[0];
    in[1] = out[0] = -1;
    close(ex[1]);
    ex[1] = -1;
    int code = read_exec_errno(ex[0]);
    if (code != 0)
        st = error_set(err, STATUS_IO, "engine %s: cannot execute %s: %s", e->spec.name,
                       e->spec.cmd, strerror(code));
cleanup:
    for (int i = 0; i < 2; i++) {
        if (in[i] >= 0)
            close(in[i]);
        if (out[i] >= 0)
            close(out[i]);
        if (ex[i] >= 0)
            close(ex[i]);
    }
    return st;
}

// "exit status N" or "killed by signal N" for a reaped engine.
static void describe_exit(int status, char *out, size_t len) {
    if (WIFEXITED(status))
        snprintf(out, len, "exit status %d", WEXITSTATUS(status));
    else if (WIFSIGNALED(status))
        snprintf(out, len, "killed by signal %d", WTERMSIG(status));
    else
        snprintf(out, len, "status %d", status);
}

// Keeps the values of an "option name UCI_Variant type combo ... var V ..." line of the `uci`
// reply (the UCI protocol's option line; a value is the word after each "var").
static void note_option(UciChild *e, const char *line) {
    static const char PREFIX[] = "option name UCI_Variant type ";
    if (strncasecmp(line, PREFIX, sizeof PREFIX - 1) != 0)
        return;
    e->has_variant = true;
    e->variants[0] = '\0';
    size_t n = 0;
    for (const char *p = strstr(line, " var "); p; p = strstr(p, " var ")) {
        p += 5;
        int w = (int)strcspn(p, " ");
        if (n + (size_t)w + 2 > sizeof e->variants)
            break;
        n += (size_t)snprintf(e->variants + n, sizeof e->variants - n, "%.*s ", w, p);
    }
}

// Reads lines until one starts with `want` or the deadline passes; option lines (the `uci`
// reply's) are noted.
static ChildRead wait_for(UciChild *e, const char *want, int64_t deadline) {
    char line[ENGINE_LINE_MAX];
    size_t n = strlen(want);
    for (;;) {
        ChildRead r = child_read_line(e, line, sizeof line, deadline);
        if (r != CHILD_LINE)
            return r;
        if (strncmp(line, want, n) == 0 && (line[n] == '\0' || line[n] == ' '))
            return CHILD_LINE;
        note_option(e, line);
    }
}

VariantOffer child_variant_offer(const UciChild *e, const char *variant) {
    if (!e->has_variant)
        return VARIANT_OPTION_NONE;
    size_t n = strlen(variant);
    for (const char *p = e->variants; *p; p += strcspn(p, " ") + 1)
        if (strncasecmp(p, variant, n) == 0 && p[n] == ' ')
            return VARIANT_OPTION_OFFERS;
    return VARIANT_OPTION_LACKS;
}

const char *child_variant_values(const UciChild *e) { return e->variants; }

bool child_reply_is_refusal(const char *line) {
    // Stockfish and Fairy-Stockfish: "No such option: NAME"; Hansu and others: "info string
    // error: ..." or a bare "error ..." line.
    return strncasecmp(line, "no such option", 14) == 0 || strcasestr(line, "unknown option") ||
           (strncmp(line, "info string", 11) == 0 && strcasestr(line + 11, "error")) ||
           strncasecmp(line, "error", 5) == 0;
}

// Sends option i of the spec and waits for `readyok`: a refusal before it (a misspelt option
// the engine would otherwise silently ignore) is a start error naming the option.
static Status set_option(UciChild *e, int i, int64_t deadline, int64_t timeout_ms, ErrorInfo *err) {
    const EngineSpec *spec = &e->spec;
    char line[ENGINE_LINE_MAX];
    snprintf(line, sizeof line, "setoption name %s value %s", spec->opt_name[i],
             spec->opt_value[i]);
    if (!child_send(e, line) || !child_send(e, "isready"))
        return error_set(err, STATUS_IO, "engine %s: exited while setting option %s", spec->name,
                         spec->opt_name[i]);
    for (;;) {
        ChildRead r = child_read_line(e, line, sizeof line, deadline);
        if (r == CHILD_TIMEOUT)
            return error_set(err, STATUS_IO,
                             "engine %s: no readyok within %lld ms after "
                             "option %s",
                             spec->name, (long long)timeout_ms, spec->opt_name[i]);
        if (r == CHILD_EOF)
            return error_set(err, STATUS_IO, "engine %s: exited after option %s=%s", spec->name,
                             spec->opt_name[i], spec->opt_value[i]);
        if (strcmp(line, "readyok") == 0)
            return STATUS_OK;
        if (child_reply_is_refusal(line))
            return error_set(err, STATUS_RANGE, "engine %s refused option %s=%s: \"%.80s\"",
                             spec->name, spec->opt_name[i], spec->opt_value[i], line);
    }
}

static bool raw_send(void *ctx, const char *line);

// A CECP engine's start: `xboard`, `protover 2`, its features read until done=1 (*r as
// wait_for's); the variants it names kept as a UCI_Variant combo's values.
static Status handshake_cecp(UciChild *e, int64_t deadline, ChildRead *r, ErrorInfo *err) {
    if (!(e->cecp = cecp_new()))
        return error_set(err, STATUS_NOMEM, "engine %s: out of memory", e->spec.name);
    raw_send(e, "xboard");
    raw_send(e, "protover 2");
    char line[ENGINE_LINE_MAX];
    while ((*r = child_read_line(e, line, sizeof line, deadline)) == CHILD_LINE &&
           !cecp_feature(e->cecp, line)) {
    }
    e->has_variant = cecp_variants(e->cecp)[0] != '\0';
    snprintf(e->variants, sizeof e->variants, "%s", cecp_variants(e->cecp));
    return STATUS_OK;
}

bool child_can_set_position(const UciChild *e) { return !e->cecp || cecp_setboard(e->cecp); }

Status child_start(UciChild **out, const EngineSpec *spec, int64_t timeout_ms, ErrorInfo *err) {
    signal(SIGPIPE, SIG_IGN);
    *out = NULL;
    UciChild *e = calloc(1, sizeof *e);
    if (!e)
        return error_set(err, STATUS_NOMEM, "engine %s: out of memory", spec->name);
    e->spec = *spec;
    e->to_fd = e->from_fd = -1;
    e->exit_status = -1;
    Status st = spawn(e, err);
    if (st != STATUS_OK)
        goto cleanup;
    int64_t deadline = timeman_now_ms() + timeout_ms;
    ChildRead r;
    if (spec->xboard && (st = handshake_cecp(e, deadline, &r, err)) != STATUS_OK)
        goto cleanup;
    if (!spec->xboard) {
        child_send(e, "uci");
        r = wait_for(e, "uciok", deadline);
    }
    if (r == CHILD_EOF) {
        char how[64] = "exit status unknown";
        if (e->exit_status != -1)
            describe_exit(e->exit_status, how, sizeof how);
        st = error_set(err, STATUS_IO, "engine %s (%s): exited before %s (%s)", spec->name,
                       spec->cmd, spec->xboard ? "feature done=1" : "uciok", how);
        goto cleanup;
    }
    if (r != CHILD_LINE) {
        st = error_set(err, STATUS_IO, "engine %s (%s): no %s within %lld ms", spec->name,
                       spec->cmd, spec->xboard ? "feature done=1" : "uciok", (long long)timeout_ms);
        goto cleanup;
    }
    for (int i = 0; i < spec->noptions && st == STATUS_OK; i++)
        st = set_option(e, i, deadline, timeout_ms, err);
    if (st != STATUS_OK)
        goto cleanup;
    if (!child_sync(e, deadline)) {
        st = error_set(err, STATUS_IO, "engine %s: no readyok within %lld ms", spec->name,
                       (long long)timeout_ms);
        goto cleanup;
    }
    *out = e;
    return STATUS_OK;
cleanup:
    child_kill(e);
    child_stop(e);
    return st;
}

void child_kill(UciChild *e) {
    if (!e || e->pid <= 0)
        return;
    // The whole process group: an engine run by a script leaves no child behind. The engine
    // itself too, in case its setpgid had not run yet.
    kill(-e->pid, SIGKILL);
    kill(e->pid, SIGKILL);
    reap(e, true);
}

void child_stop(UciChild *e) {
    if (!e)
        return;
    if (e->pid > 0) {
        child_send(e, "quit");
        for (int i = 0; i < 20 && !reap(e, false); i++)
            usleep(10000);
        child_kill(e);
    }
    if (e->to_fd >= 0)
        close(e->to_fd);
    if (e->from_fd >= 0)
        close(e->from_fd);
    cecp_free(e->cecp);
    free(e);
}

bool child_send(UciChild *e, const char *line) {
    return e->cecp ? cecp_command(e->cecp, line, raw_send, e) : raw_send(e, line);
}

// Writes one line as it is.
static bool raw_send(void *ctx, const char *line) {
    UciChild *e = ctx;
    if (e->to_fd < 0)
        return false;
    size_t n = strlen(line);
    char buf[ENGINE_LINE_MAX];
    if (n + 2 > sizeof buf)
        return false;
    memcpy(buf, line, n);
    buf[n++] = '\n';
    for (size_t done = 0; done < n;) {
        ssize_t w = write(e->to_fd, buf + done, n - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return false;
        done += (size_t)w;
    }
    return true;
}

// Moves the first line out of e->buf into out. False when no newline is buffered.
static bool take_line(UciChild *e, char *out, size_t len) {
    char *nl = memchr(e->buf, '\n', e->len);
    if (!nl) {
        if (e->len < sizeof e->buf)
            return false;
        nl = e->buf + e->len - 1; // an over-long line: cut it here
    }
    size_t n = (size_t)(nl - e->buf);
    size_t keep = n < len - 1 ? n : len - 1;
    memcpy(out, e->buf, keep);
    out[keep] = '\0';
    if (keep > 0 && out[keep - 1] == '\r')
        out[keep - 1] = '\0';
    e->len -= n + 1;
    memmove(e->buf, nl + 1, e->len);
    return true;
}

ChildRead child_read_line(UciChild *e, char *buf, size_t len, int64_t deadline_ms) {
    for (;;) {
        if (e->cecp && cecp_pending(e->cecp, buf, len))
            return CHILD_LINE;
        if (take_line(e, buf, len) && (!e->cecp || cecp_reply(e->cecp, buf, len)))
            return CHILD_LINE;
        if (e->len && memchr(e->buf, '\n', e->len))
            continue; // a CECP line dropped, more lines buffered
        if (e->eof)
            return CHILD_EOF;
        int64_t left = deadline_ms - timeman_now_ms();
        if (left < 0)
            return CHILD_TIMEOUT;
        struct pollfd pfd = {.fd = e->from_fd, .events = POLLIN};
        int r = poll(&pfd, 1, (int)(left > 1000000 ? 1000000 : left));
        if (r < 0 && errno == EINTR)
            continue;
        if (r == 0)
            return CHILD_TIMEOUT;
        ssize_t got = read(e->from_fd, e->buf + e->len, sizeof e->buf - e->len);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0) {
            // The engine is gone: give it a moment to exit on its own (so its exit status is
            // its own), then make sure, and reap it so no zombie stays.
            e->eof = true;
            for (int i = 0; i < 20 && e->pid > 0 && !reap(e, false); i++)
                usleep(5000);
            child_kill(e);
            continue;
        }
        e->len += (size_t)got;
    }
}

bool child_sync(UciChild *e, int64_t deadline_ms) {
    return child_send(e, "isready") && wait_for(e, "readyok", deadline_ms) == CHILD_LINE;
}

int child_pid(const UciChild *e) { return e ? (int)e->pid : 0; }
