// SPDX-License-Identifier: MIT
// The text of a .gib file read as a stream of UTF-8 lines (docs/gib.md, "What Hansu reads"): the
// encoding decided once for the whole file, UTF-8 or CP949/EUC-KR, without holding the file in
// memory, so that a file of any number of records is read line by line.
#pragma once

#include <stdio.h>

#include "status.h"

/// A .gib file being read line by line (opaque).
typedef struct GibText GibText;

/// Reads f (a seekable stream at its start, which stays the caller's; name is used in messages
/// and must outlive the GibText) once through to decide its encoding, then rewinds it: 0xFF and
/// Ctrl-Z (0x1A) bytes are dropped (old DOS programs wrote them); any other control byte but tab,
/// CR and LF is binary data; the text is UTF-8 (a byte order mark skipped) when every line is
/// well-formed UTF-8, else CP949 (a superset of EUC-KR) converted with iconv. Errors "NAME:LINE:
/// what": STATUS_FORMAT (binary data; neither encoding, named where the reading that went
/// further stopped), STATUS_IO (a read or a seek failed), STATUS_NOMEM.
Status gib_text_open(FILE *f, const char *name, GibText **out, ErrorInfo *err);

/// The next line as UTF-8, without its "\n" (a "\r" before it is kept): *line points into the
/// GibText and is valid until the next call; NULL at the end of the file. STATUS_IO when the read
/// fails, STATUS_FORMAT when the file changed since gib_text_open judged it, STATUS_NOMEM.
Status gib_text_line(GibText *t, char **line, ErrorInfo *err);

/// Frees t (NULL accepted); the stream stays open.
void gib_text_close(GibText *t);
