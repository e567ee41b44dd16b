// SPDX-License-Identifier: MIT
// A UCI session in memory for tests (uci_session.h).
#define _GNU_SOURCE // open_memstream
#include "uci_session.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

void uci_session_open(UciSession *s) {
    memset(s, 0, sizeof *s);
    s->out = open_memstream(&s->buf, &s->len);
    assert_non_null(s->out);
    s->ctx = uci_create(s->out);
    assert_non_null(s->ctx);
}

void uci_session_close(UciSession *s) {
    uci_destroy(s->ctx);
    fclose(s->out);
    free(s->buf);
}

// The output written since the last call. Under the stream's lock: a search thread still
// writing may grow (move) the buffer, which a flush publishes in s->buf and s->len.
static const char *unread(UciSession *s) {
    static char answer[1 << 16];
    flockfile(s->out);
    fflush(s->out);
    size_t n = s->len - s->seen;
    if (n >= sizeof answer)
        n = sizeof answer - 1;
    memcpy(answer, s->buf + s->seen, n);
    answer[n] = '\0';
    s->seen = s->len;
    funlockfile(s->out);
    return answer;
}

const char *uci_session_send(UciSession *s, const char *line) {
    uci_handle_line(s->ctx, line);
    return unread(s);
}

const char *uci_session_say(UciSession *s, const char *line) {
    uci_handle_line(s->ctx, line);
    uci_wait(s->ctx);
    return unread(s);
}

int uci_session_count(const char *text, const char *needle) {
    int n = 0;
    for (const char *p = text; (p = strstr(p, needle)); p += strlen(needle))
        n++;
    return n;
}

long uci_session_last_value(const char *text, const char *key) {
    long v = -1;
    for (const char *p = text; (p = strstr(p, key)) != NULL; p += strlen(key))
        v = strtol(p + strlen(key), NULL, 10);
    return v;
}
