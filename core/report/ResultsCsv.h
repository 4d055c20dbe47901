#pragma once
// results.csv of a report bundle: one row per cell, the numbers people paste into a spreadsheet.
#include "results/Results.h"
#include <QByteArray>

namespace sb {

// RFC 4180 CSV (CRLF line ends, quoted where needed). Text fields that a spreadsheet would run as
// a formula (leading = + - @) get a leading apostrophe: server names come from untrusted specs.
QByteArray resultsCsv(const SweepResults &results);

} // namespace sb
