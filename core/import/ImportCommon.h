#pragma once
// Helpers shared by the importers of other tools' results.
#include <QByteArray>
#include <QJsonObject>
#include <QString>

namespace sb {

// Reads a JSON object from a file, refusing files over `maxBytes` (imports are untrusted).
bool readJsonObject(const QString &path, QJsonObject *out, QString *error, qint64 maxBytes = 256 * 1024 * 1024);

} // namespace sb
