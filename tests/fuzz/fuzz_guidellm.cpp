// Fuzzes the GuideLLM importer (core/import/GuidellmImport) on one benchmarks.json report. Imported
// results then go through the CSV writer, as Compare and export use them. Oracle: no crash, no
// sanitizer report, request counts never negative.
#include "FuzzSupport.h"
#include "import/GuidellmImport.h"

extern "C" int LLVMFuzzerInitialize(int *, char ***)
{
    sbfuzz::quietQt();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const QString file = sbfuzz::scratchDir() + QStringLiteral("/guidellm/benchmarks.json");
    sbfuzz::writeFile(file, QByteArray(reinterpret_cast<const char *>(data), qsizetype(size)));
    sb::LoadedResults out;
    QString error;
    if (!sb::loadGuidellmReport(file, &out, &error))
        return 0;
    sbfuzz::checkImported(out);
    return 0;
}
