#pragma once
// Shared by the real-server suites: a one-cell sweep whose prompts are sized by calibration on
// the server's own tokenizer, and the check that the lengths it measured are the ones asked for
// (fixed lengths within 1 %, a distribution's mean within 2 %).
#include "RealServer.h"
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <cmath>

namespace sbreal {

inline QByteArray lengthSweepSpec(quint16 port, const QString &flavor, const QString &endpoint, const QString &input, const QString &output,
                                  int requests, int concurrency)
{
    return QStringLiteral("name: lengths\n"
                          "servers:\n"
                          "  - {name: s, url: 'http://127.0.0.1:%1', model: tiny, flavor: %2, endpoint: %3}\n"
                          "workload:\n"
                          "  input_tokens: %4\n"
                          "  output_tokens: %5\n"
                          "  seed: 5\n"
                          "  requests_per_cell: %6\n"
                          "  request_timeout_s: 120\n"
                          "sweep: {concurrency: [%7]}\n")
        .arg(port)
        .arg(flavor, endpoint, input, output)
        .arg(requests)
        .arg(concurrency)
        .toUtf8();
}

struct LengthOutcome {
    QString problem;                 // empty when the cell completed with usage counts
    double requested = 0, measured = 0; // mean ISL over the cell's requests
    double requestedOut = 0, measuredOut = 0;
    double worstOff = 0;             // the largest |measured - requested| of one request, tokens
    QString calibration;             // calibration.json, compact
    QString warnings;                // the cell's warnings, compact: a failed calibration says why there
};

// Runs the sweep through the CLI and reads what the cell asked for and measured.
inline LengthOutcome runLengthSweep(const QString &workDir, const QString &tag, const QByteArray &spec)
{
    LengthOutcome o;
    const QString specPath = writeFile(workDir, tag + ".yaml", spec);
    const QString out = QDir(workDir).filePath(tag);
    const CliRun cli = runCli({"run", specPath, "--out", out}, 900000);
    const QJsonObject cell = readJsonFile(QDir(out).filePath("results.json")).value("cells").toArray().at(0).toObject();
    if (!cli.finished || cli.code != 0 || cell.value("status").toString() != "completed" || cell.value("token_source").toString() != "usage") {
        o.problem = QStringLiteral("exit %1, cell %2 (%3), token_source %4\n%5%6")
                        .arg(cli.code)
                        .arg(cell.value("status").toString(), cell.value("reason").toString(), cell.value("token_source").toString(), cli.out, cli.err);
        return o;
    }
    const QJsonObject m = cell.value("metrics").toObject();
    o.requested = m.value("requested_input_sequence_length").toObject().value("avg").toDouble();
    o.measured = m.value("input_sequence_length").toObject().value("avg").toDouble();
    o.requestedOut = m.value("requested_output_sequence_length").toObject().value("avg").toDouble();
    o.measuredOut = m.value("output_sequence_length").toObject().value("avg").toDouble();
    for (const QJsonObject &r : readJsonLines(QDir(out).filePath(cell.value("records").toString())))
        o.worstOff = std::max(o.worstOff, std::abs(r.value("input_tokens").toDouble() - r.value("requested_input_tokens").toDouble()));
    o.calibration = QString::fromUtf8(QJsonDocument(readJsonFile(QDir(out).filePath("calibration.json"))).toJson(QJsonDocument::Compact));
    o.warnings = QString::fromUtf8(QJsonDocument(cell.value("warnings").toArray()).toJson(QJsonDocument::Compact));
    return o;
}

} // namespace sbreal
