#pragma once
// Helpers shared by the importers of other tools' results.
#include "io/ReadLimits.h"
#include <QByteArray>
#include <QJsonObject>
#include <QString>

namespace sb {

// Reads a JSON object from a regular file, refusing anything else and files over `maxBytes`
// (imports are untrusted).
bool readJsonObject(const QString &path, QJsonObject *out, QString *error, qint64 maxBytes = kMaxResultsFileBytes);

} // namespace sb
