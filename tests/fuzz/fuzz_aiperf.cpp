// Fuzzes the AIPerf importer on an artifact folder built from the input: profile_export_aiperf.json,
// then profile_export.jsonl, then sweep_aggregate/profile_export_aiperf_sweep.json, each after a
// "#--8<--" line (missing parts are not written). Imported results then go through the report
// writers, as Compare and export use them. Oracle: no crash, no sanitizer report, counts never
// negative.
#include "FuzzSupport.h"
#include "import/AiperfImport.h"
#include "report/ResultsCsv.h"

extern "C" int LLVMFuzzerInitialize(int *, char ***)
{
    sbfuzz::quietQt();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const QString dir = sbfuzz::scratchDir() + QStringLiteral("/aiperf");
    QDir(dir).removeRecursively();
    const auto parts = sbfuzz::splitParts(data, size, 3);
    sbfuzz::writeFile(dir + QStringLiteral("/profile_export_aiperf.json"), parts[0]);
    if (!parts[1].isNull())
        sbfuzz::writeFile(dir + QStringLiteral("/profile_export.jsonl"), parts[1]);
    if (!parts[2].isNull())
        sbfuzz::writeFile(dir + QStringLiteral("/sweep_aggregate/profile_export_aiperf_sweep.json"), parts[2]);
    sb::LoadedResults out;
    QString error;
    if (!sb::isAiperfFolder(dir) || !sb::loadAiperfFolder(dir, &out, &error))
        return 0;
    for (const sb::CellResult &c : out.results.cells)
        if (c.completed < 0 || c.failed < 0)
            sbfuzz::broken("an imported cell with a negative request count");
    (void)sb::resultsCsv(out.results);
    return 0;
}
