// Fuzzes the importer of `vllm bench serve --save-result` JSON: the input is one result file, read
// as a file and as the only file of a folder (the two ways Compare opens them). Oracle: no crash,
// no sanitizer report.
#include "FuzzSupport.h"
#include "import/VllmImport.h"
#include "report/ResultsCsv.h"

extern "C" int LLVMFuzzerInitialize(int *, char ***)
{
    sbfuzz::quietQt();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const QString dir = sbfuzz::scratchDir() + QStringLiteral("/vllm");
    const QString file = dir + QStringLiteral("/result.json");
    sbfuzz::writeFile(file, QByteArray(reinterpret_cast<const char *>(data), qsizetype(size)));
    for (const QString &path : {file, dir}) {
        sb::LoadedResults out;
        QString error;
        if (sb::loadVllmResults(path, &out, &error))
            (void)sb::resultsCsv(out.results);
    }
    return 0;
}
