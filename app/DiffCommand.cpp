// sweepbench diff BASE NEW: the regression gate (report/RegressionGate.h) on the command line.
// Only the arguments are read here; comparing and rendering live in core.
#include "CliCommon.h"
#include "Commands.h"
#include "io/DurableWrite.h"
#include "report/RegressionGate.h"
#include "report/RegressionGateReport.h"
#include "report/ResultsLoader.h"
#include "report/DisplayText.h"
#include <QDir>
#include <cmath>

namespace sb {

namespace {
constexpr int kWriteFailed = 3; // as run's "results could not be written"

struct DiffArgs {
    QStringList inputs;
    GateOptions options;
    QString markdown, junit;
};

int usage(const QString &message)
{
    err() << "sweepbench diff: " << message << '\n';
    return usageError(QStringLiteral("diff"));
}

// "5%", "5 %" or "5": percent of BASE, at least 0.
bool parseThreshold(QString text, double *out)
{
    text = text.trimmed();
    if (text.endsWith(QLatin1Char('%')))
        text = text.chopped(1).trimmed();
    bool ok = false;
    const double v = text.toDouble(&ok);
    if (!ok || !std::isfinite(v) || v < 0)
        return false;
    *out = v;
    return true;
}

// Returns 0 when parsed; else the exit code of the usage error already reported.
int parseDiffArgs(const QStringList &args, DiffArgs *d)
{
    bool metricsGiven = false;
    for (int i = 0; i < args.size(); ++i) {
        QString a = args[i], value;
        const bool takesValue = a == QLatin1String("--metric") || a == QLatin1String("--threshold") || a == QLatin1String("--alpha")
                                || a == QLatin1String("--markdown") || a == QLatin1String("--junit");
        if (a.startsWith(QLatin1String("--")) && a.contains(QLatin1Char('='))) {
            value = a.section(QLatin1Char('='), 1);
            a = a.section(QLatin1Char('='), 0, 0);
        } else if (takesValue) {
            if (i + 1 >= args.size())
                return usage(a + QStringLiteral(" needs a value"));
            value = args[++i];
        }
        if (a == QLatin1String("--metric")) {
            if (!metricsGiven)
                d->options.metrics.clear();
            metricsGiven = true;
            for (const QString &name : value.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
                QString error;
                const auto metric = parseGateMetric(name.trimmed(), &error);
                if (!metric)
                    return usage(displaySafe(error, DisplayLines::Single));
                d->options.metrics.append(*metric);
            }
            if (d->options.metrics.isEmpty())
                return usage(QStringLiteral("--metric needs a metric key"));
        } else if (a == QLatin1String("--threshold")) {
            if (!parseThreshold(value, &d->options.thresholdPct))
                return usage(QStringLiteral("--threshold expects a percentage ≥ 0, e.g. 5%; got '%1'").arg(displaySafe(value, DisplayLines::Single)));
        } else if (a == QLatin1String("--alpha")) {
            bool ok = false;
            d->options.alpha = value.toDouble(&ok);
            if (!ok || !(d->options.alpha > 0 && d->options.alpha < 1))
                return usage(QStringLiteral("--alpha expects a number between 0 and 1, e.g. 0.05; got '%1'").arg(displaySafe(value, DisplayLines::Single)));
        } else if (a == QLatin1String("--markdown")) {
            d->markdown = value;
        } else if (a == QLatin1String("--junit")) {
            d->junit = value;
        } else if (a.startsWith(QLatin1Char('-'))) {
            return usage(QStringLiteral("unknown option ") + displaySafe(args[i], DisplayLines::Single));
        } else {
            d->inputs.append(a);
        }
    }
    if (d->inputs.size() != 2)
        return usage(QStringLiteral("expected two result sets, BASE and NEW (got %1)").arg(d->inputs.size()));
    return 0;
}

// Reports every failed write; true when all asked-for files were written.
bool writeReports(const DiffArgs &d, const GateResult &r)
{
    bool ok = true;
    const auto write = [&](const QString &path, const QByteArray &data) {
        QString error;
        if (path.isEmpty() || writeFileAtomically(path, data, &error))
            return;
        err() << "sweepbench diff: " << error << '\n';
        ok = false;
    };
    write(d.markdown, gateMarkdown(r));
    write(d.junit, gateJUnitXml(r));
    return ok;
}
} // namespace

int runDiffCommand(const QStringList &args)
{
    if (!args.isEmpty() && isUsageOption(args.first()))
        return runHelpCommand({QStringLiteral("diff")});
    DiffArgs d;
    if (const int code = parseDiffArgs(args, &d))
        return code;
    const QString baseName = QDir::toNativeSeparators(d.inputs[0]), newName = QDir::toNativeSeparators(d.inputs[1]);
    GateResult result;
    QString error;
    auto base = loadResults(d.inputs[0], &error);
    std::optional<LoadedResults> candidate;
    if (base)
        candidate = loadResults(d.inputs[1], &error);
    if (!base || !candidate) {
        result = cannotCompare(baseName, newName, d.options,
                               QStringLiteral("cannot read %1: %2").arg(base ? QStringLiteral("NEW") : QStringLiteral("BASE"), error));
    } else {
        // Named as the user named them: two folders are often both called "results".
        base->displayName = baseName;
        candidate->displayName = newName;
        result = compareForRegressions(*base, *candidate, d.options);
    }
    // Nothing compared is an error: its reason goes where errors go.
    QTextStream &stream = result.verdict == GateVerdict::CannotCompare ? err() : out();
    stream << gateText(result);
    stream.flush();
    if (!writeReports(d, result))
        return kWriteFailed;
    return result.exitCode();
}

} // namespace sb
