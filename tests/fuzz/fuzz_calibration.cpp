// Fuzzes reading OUT/calibration.json as a resumed run does (engine/PromptCalibration
// CalibrationStore): the input is the file. Oracle beyond "no crash": every entry the store
// keeps asks for a filler within maxFillerChars of its length, for the length its key names,
// and survives toJson -> fromJson unchanged; every entry of a file that parses is either kept
// or named in the store's problems.
#include "FuzzSupport.h"
#include "engine/PromptCalibration.h"
#include "workload/WorkloadPlan.h"
#include <QJsonDocument>

extern "C" int LLVMFuzzerInitialize(int *, char ***)
{
    sbfuzz::quietQt();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const QString dir = sbfuzz::scratchDir() + QStringLiteral("/run");
    QDir(dir).removeRecursively();
    const QByteArray bytes(reinterpret_cast<const char *>(data), qsizetype(size));
    sbfuzz::writeFile(dir + QStringLiteral("/calibration.json"), bytes);
    const sb::CalibrationStore store(dir);
    for (auto it = store.entries().cbegin(); it != store.entries().cend(); ++it) {
        const sb::PromptCalibration &c = it.value();
        if (c.target < 1 || c.target > sb::kMaxLength || c.fillerChars < 0 || c.fillerChars > sb::maxFillerChars(c.target))
            sbfuzz::broken("a kept calibration is out of bounds");
        if (it.key().section(QLatin1Char('|'), -3, -3).toInt() != c.target)
            sbfuzz::broken("a kept calibration is for another length than its key's");
        if (!store.refusal(it.key()).isEmpty())
            sbfuzz::broken("a kept calibration is also refused");
        sb::PromptCalibration back;
        QString error;
        if (!sb::PromptCalibration::fromJson(c.toJson(), c.target, &back, &error) || back.toJson() != c.toJson())
            sbfuzz::broken("a kept calibration changes on a toJson -> fromJson round trip");
    }
    // A file that parses is judged entry by entry: each is kept or named in a problem.
    const QJsonDocument doc = QJsonDocument::fromJson(bytes);
    if (doc.isObject() && store.entries().size() + store.problems().size() != doc.object().size())
        sbfuzz::broken("an entry of calibration.json is neither kept nor refused");
    return 0;
}
