// Fuzzes the inference-perf importer (core/import/InferencePerfImport) on a report folder built
// from the input: stage_0_lifecycle_metrics.json, stage_1_lifecycle_metrics.json,
// summary_lifecycle_metrics.json and config.yaml, separated by "#--8<--" lines (missing or empty
// parts are not written). Oracle: no crash, no sanitizer report, request counts never negative.
#include "FuzzSupport.h"
#include "import/InferencePerfImport.h"

extern "C" int LLVMFuzzerInitialize(int *, char ***)
{
    sbfuzz::quietQt();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const QString dir = sbfuzz::scratchDir() + QStringLiteral("/inference-perf");
    QDir(dir).removeRecursively();
    QDir().mkpath(dir);
    const auto parts = sbfuzz::splitParts(data, size, 4);
    const char *const names[] = {"stage_0_lifecycle_metrics.json", "stage_1_lifecycle_metrics.json", "summary_lifecycle_metrics.json", "config.yaml"};
    for (int i = 0; i < 4; ++i)
        if (!parts[i].isEmpty())
            sbfuzz::writeFile(dir + QLatin1Char('/') + QLatin1String(names[i]), parts[i]);
    sb::LoadedResults out;
    QString error;
    if (!sb::isInferencePerfFolder(dir) || !sb::loadInferencePerfFolder(dir, &out, &error))
        return 0;
    sbfuzz::checkImported(out);
    return 0;
}
