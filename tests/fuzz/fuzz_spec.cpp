// Fuzzes the sweep spec loader (YAML text -> SweepSpec + diagnostics), the input every user and
// every shared sweep.yaml feeds, as text and as a file (the bounded reader every command uses).
// Oracles beyond "no crash": the file reads back to the same bytes and the same diagnostics as
// the text; a spec that loads without errors is written back by saveSpecYaml to YAML that loads
// without errors again and writes back to the same bytes (docs/spec-reference.md: what Save
// writes, Open reads back unchanged).
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
    const QString path = sbfuzz::scratchDir() + QStringLiteral("/fuzz.yaml");
    sbfuzz::writeFile(path, yaml);
    QByteArray read;
    const sb::SpecLoadResult loaded = sb::loadSpecFile(path, &read);
    if (read != yaml)
        sbfuzz::broken("the spec file does not read back to the bytes written");
    const sb::SpecLoadResult fromText = sb::loadSpecText(yaml, path);
    if (fromText.diagnostics.size() != loaded.diagnostics.size() || fromText.ok() != loaded.ok())
        sbfuzz::broken("the spec file and the same text load differently");
    for (qsizetype i = 0; i < loaded.diagnostics.size(); ++i)
        if (loaded.diagnostics[i].toString() != fromText.diagnostics[i].toString())
            sbfuzz::broken("the spec file and the same text report differently");
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
