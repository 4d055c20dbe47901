// Fuzzes the genai-bench importer (core/import/GenaiBenchImport) on an experiment folder built from
// the input: experiment_metadata.json and two run files (concurrency 1 and 2), separated by
// "#--8<--" lines (missing or empty parts are not written). Oracle: no crash, no sanitizer
// report, request counts never negative.
#include "FuzzSupport.h"
#include "import/GenaiBenchImport.h"

extern "C" int LLVMFuzzerInitialize(int *, char ***)
{
    sbfuzz::quietQt();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const QString dir = sbfuzz::scratchDir() + QStringLiteral("/genai-bench");
    QDir(dir).removeRecursively();
    QDir().mkpath(dir);
    const auto parts = sbfuzz::splitParts(data, size, 3);
    const char *const names[] = {"experiment_metadata.json", "D32_12_text-to-text_num_concurrency_1_time_1s.json",
                                 "D32_12_text-to-text_num_concurrency_2_time_1s.json"};
    for (int i = 0; i < 3; ++i)
        if (!parts[i].isEmpty())
            sbfuzz::writeFile(dir + QLatin1Char('/') + QLatin1String(names[i]), parts[i]);
    sb::LoadedResults out;
    QString error;
    if (!sb::isGenaiBenchFolder(dir) || !sb::loadGenaiBenchFolder(dir, &out, &error))
        return 0;
    sbfuzz::checkImported(out);
    return 0;
}
