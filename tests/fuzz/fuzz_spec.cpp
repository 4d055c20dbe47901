// Fuzzes the sweep spec loader (YAML text -> SweepSpec + diagnostics), the input every user and
// every shared sweep.yaml feeds. Oracle beyond "no crash": a spec that loads without errors is
// written back by saveSpecYaml to YAML that loads without errors again and writes back to the
// same bytes (docs/spec-reference.md: what Save writes, Open reads back unchanged).
#include "FuzzSupport.h"
#include "spec/SpecIO.h"

extern "C" int LLVMFuzzerInitialize(int *, char ***)
{
    sbfuzz::quietQt();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const QByteArray yaml(reinterpret_cast<const char *>(data), qsizetype(size));
    const sb::SpecLoadResult loaded = sb::loadSpecText(yaml, QStringLiteral("fuzz.yaml"));
    for (const sb::SpecDiagnostic &d : loaded.diagnostics)
        (void)d.toString();
    if (loaded.draft)
        (void)sb::validateSpec(*loaded.draft);
    if (!loaded.ok())
        return 0;
    const QByteArray saved = sb::saveSpecYaml(*loaded.spec);
    const sb::SpecLoadResult again = sb::loadSpecText(saved, QStringLiteral("saved.yaml"));
    if (!again.ok())
        sbfuzz::broken("a valid spec, saved, does not load again");
    if (sb::saveSpecYaml(*again.spec) != saved)
        sbfuzz::broken("a valid spec, saved and loaded, saves differently");
    (void)sb::saveSpecYaml(*loaded.spec, sb::SecretPolicy::Strip);
    return 0;
}
