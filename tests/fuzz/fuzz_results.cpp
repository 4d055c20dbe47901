// Fuzzes results loading: a results folder (results.json + sweep.yaml) or an exported zip, as
// `summary`, Compare and --resume open them, then the writers that turn loaded results into the
// CSV and HTML of a report. Input: results.json, then sweep.yaml after a "#--8<--" line; an
// input starting with "PK" is a zip instead. Oracle beyond "no crash": what readResults accepts
// survives toJson -> sweepResultsFromJson -> toJson unchanged.
#include "FuzzSupport.h"
#include "import/SafeUnzip.h"
#include "report/ReportHtml.h"
#include "report/ResultsCsv.h"
#include "report/ResultsLoader.h"
#include "results/ResultsStore.h"
#include <QFileInfo>

namespace {

void render(const sb::SweepResults &results)
{
    (void)sb::resultsCsv(results);
    sb::ReportHtmlInput in;
    in.results = results;
    in.sourceName = QStringLiteral("fuzz");
    (void)sb::reportHtml(in);
}

void checkRoundTrip(const sb::SweepResults &r)
{
    const QJsonObject once = sb::toJson(r);
    sb::SweepResults back;
    QString error;
    if (!sb::sweepResultsFromJson(once, &back, &error))
        sbfuzz::broken("results written by toJson are refused by sweepResultsFromJson");
    if (sb::toJson(back) != once)
        sbfuzz::broken("results change on a toJson -> sweepResultsFromJson round trip");
}

// Zip loads extract into fresh folders under one per-process root that lives until exit; a
// fuzzer loads millions, so empty that root after each input.
void removeExtractions()
{
    QString error;
    const QString probe = sb::newExtractionDir(&error);
    if (probe.isEmpty())
        return;
    QDir root(QFileInfo(probe).path());
    for (const QString &child : root.entryList(QDir::Dirs | QDir::NoDotAndDotDot))
        QDir(root.filePath(child)).removeRecursively();
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***)
{
    sbfuzz::quietQt();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const QString dir = sbfuzz::scratchDir() + QStringLiteral("/run");
    QDir(dir).removeRecursively();
    QString error;
    if (size >= 2 && data[0] == 'P' && data[1] == 'K') {
        const QString zip = sbfuzz::scratchDir() + QStringLiteral("/bundle.zip");
        sbfuzz::writeFile(zip, QByteArray(reinterpret_cast<const char *>(data), qsizetype(size)));
        if (const auto loaded = sb::loadResults(zip, &error))
            render(loaded->results);
        removeExtractions();
        return 0;
    }
    const auto parts = sbfuzz::splitParts(data, size, 2);
    sbfuzz::writeFile(dir + QStringLiteral("/results.json"), parts[0]);
    if (!parts[1].isNull())
        sbfuzz::writeFile(dir + QStringLiteral("/sweep.yaml"), parts[1]);
    sb::SweepResults stored;
    if (sb::ResultsStore::readResults(dir, &stored, &error))
        checkRoundTrip(stored);
    if (const auto loaded = sb::loadResults(dir, &error))
        render(loaded->results);
    return 0;
}
