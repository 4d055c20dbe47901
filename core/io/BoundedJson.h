#pragma once
// Reading a JSON document from a file someone else may have written: a regular file within a
// byte cap (io/BoundedRead.h), and, checked on the text before anything is parsed
// (io/JsonScan.h), at most kMaxJsonValues values and at most `maxItems` items in the top-level
// array `arrayKey` (results.json's cells), each item holding at most `maxItemValues` values.
#include "io/ReadLimits.h"
#include <QByteArrayView>
#include <QJsonObject>
#include <QJsonValue>
#include <QString>
#include <optional>

namespace sb {

struct JsonFileCaps {
    qint64 maxBytes = kMaxResultsFileBytes;
    qint64 maxValues = kMaxJsonValues;
    QByteArrayView arrayKey;  // empty = no per-array cap
    qint64 maxItems = 0;
    const char *itemName = "items"; // for the message: "100000 cells (the limit is 10000)"
    // Values one item of that array may hold (0 = no cap): a cell of results.json is refused by
    // position ("cells[3]") before a parse builds its 2 million time slices.
    qint64 maxItemValues = 0;
};

bool readJsonFile(const QString &path, QJsonObject *out, QString *error, const JsonFileCaps &caps = {});

// A whole number in [lo, hi] from a JSON value (a double holds every such integer exactly);
// nullopt for anything else: a string, a fraction, a number out of range (-0.0 when lo > 0).
std::optional<qint64> jsonWholeNumber(const QJsonValue &v, qint64 lo, qint64 hi);

} // namespace sb
