// Fuzzes the SGLang bench_serving importer (core/import/SglangImport) on one JSONL result file
// (a run per line). Oracle: no crash, no sanitizer report, request counts never negative.
#include "FuzzSupport.h"
#include "import/SglangImport.h"

extern "C" int LLVMFuzzerInitialize(int *, char ***)
{
    sbfuzz::quietQt();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const QString file = sbfuzz::scratchDir() + QStringLiteral("/sglang/bench_serving.jsonl");
    sbfuzz::writeFile(file, QByteArray(reinterpret_cast<const char *>(data), qsizetype(size)));
    sb::LoadedResults out;
    QString error;
    if (!sb::looksLikeSglangJsonl(file) || !sb::loadSglangJsonl(file, &out, &error))
        return 0;
    sbfuzz::checkImported(out);
    return 0;
}
