#pragma once
// "Did you mean" for misspelled keys and enum values: the closest candidate by edit distance.
#include <QString>
#include <QStringList>

namespace sb {

// Optimal-string-alignment distance (Levenshtein plus adjacent transposition, so "nmae" is
// one edit from "name"), compared case-insensitively.
int editDistance(const QString &a, const QString &b);

// The candidate closest to `word`, or an empty string when none is close enough to be a
// plausible typo (more than about a third of the word would have to change).
QString closestMatch(const QString &word, const QStringList &candidates);

} // namespace sb
