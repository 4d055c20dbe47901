#include "results/SpecFingerprint.h"
#include "spec/SpecIO.h"
#include "spec/YamlJson.h"
#include <QCryptographicHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>

namespace sb {

namespace {
const QString kSha = QStringLiteral("sha256");
const QString kWorkload = QStringLiteral("workload");
const QString kServers = QStringLiteral("servers");

// Server keys that do not change what is measured (the name is the server's key itself).
bool ignoredServerKey(const QString &key)
{
    return key == QLatin1String("name") || key == QLatin1String("api_key") || key == QLatin1String("api_key_env");
}

// Nested objects become "a.b" keys; lists and scalars stay values (compared whole).
void flatten(const QJsonObject &o, const QString &prefix, QJsonObject *out)
{
    for (auto it = o.begin(); it != o.end(); ++it) {
        const QString key = prefix.isEmpty() ? it.key() : prefix + QLatin1Char('.') + it.key();
        if (it.value().isObject())
            flatten(it.value().toObject(), key, out);
        else
            out->insert(key, it.value());
    }
}

QString show(const QJsonValue &v)
{
    if (v.isUndefined())
        return QStringLiteral("(not set)");
    if (v.isString())
        return QLatin1Char('"') + v.toString() + QLatin1Char('"');
    if (v.isObject())
        return QString::fromUtf8(QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact));
    if (v.isArray())
        return QString::fromUtf8(QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact));
    return QString::fromUtf8(QJsonDocument(QJsonArray{v}).toJson(QJsonDocument::Compact)).mid(1).chopped(1);
}

void diff(const QJsonObject &was, const QJsonObject &now, const QString &prefix, QStringList *out)
{
    QStringList keys = was.keys() + now.keys();
    keys.removeDuplicates();
    keys.sort();
    for (const QString &k : std::as_const(keys))
        if (was.value(k) != now.value(k))
            out->append(QStringLiteral("%1%2: %3 -> %4").arg(prefix, k, show(was.value(k)), show(now.value(k))));
}
} // namespace

SpecFingerprint specFingerprint(const SweepSpec &spec, const QString &datasetSha256)
{
    QJsonObject doc;
    try {
        yaml::Context ctx{QString()};
        doc = yaml::toJson(ctx, YAML::Load(saveSpecYaml(spec, SecretPolicy::Strip).toStdString()), QString()).toObject();
    } catch (const YAML::Exception &) {
        // Cannot happen for the writer's own output; an empty fingerprint then differs from any
        // stored one, which makes a resume refuse rather than mix.
    }
    QJsonObject workload;
    flatten(doc.value(kWorkload).toObject(), QString(), &workload);
    if (!datasetSha256.isEmpty())
        workload.insert(QStringLiteral("dataset.sha256"), datasetSha256);
    QJsonObject servers;
    for (const QJsonValue &s : doc.value(kServers).toArray()) {
        const QJsonObject server = s.toObject();
        QJsonObject flat;
        for (auto it = server.begin(); it != server.end(); ++it) {
            if (ignoredServerKey(it.key()))
                continue;
            if (it.value().isObject())
                flatten(it.value().toObject(), it.key(), &flat);
            else
                flat.insert(it.key(), it.value());
        }
        servers.insert(server.value(QStringLiteral("name")).toString(), flat);
    }
    const QJsonObject body{{kWorkload, workload}, {kServers, servers}};
    // QJsonObject keeps keys sorted, so the compact text is canonical.
    const QByteArray canonical = QJsonDocument(body).toJson(QJsonDocument::Compact);
    QJsonObject out = body;
    out.insert(kSha, QString::fromLatin1(QCryptographicHash::hash(canonical, QCryptographicHash::Sha256).toHex()));
    return specFingerprintFromJson(out);
}

// The settings are compared as results.json holds them, so a value's JSON type counts as it did.
QStringList fingerprintDifferences(const SpecFingerprint &storedFingerprint, const SpecFingerprint &currentFingerprint)
{
    const QJsonObject stored = toJson(storedFingerprint), current = toJson(currentFingerprint);
    if (!stored.contains(kSha))
        return {QStringLiteral("the results were written without a spec fingerprint (an older SweepBench), "
                               "so their settings cannot be compared")};
    if (stored.value(kSha) == current.value(kSha))
        return {};
    QStringList out;
    diff(stored.value(kWorkload).toObject(), current.value(kWorkload).toObject(), QStringLiteral("workload."), &out);
    const QJsonObject was = stored.value(kServers).toObject(), now = current.value(kServers).toObject();
    for (auto it = was.begin(); it != was.end(); ++it)
        if (now.contains(it.key()))
            diff(it.value().toObject(), now.value(it.key()).toObject(), QStringLiteral("servers[%1].").arg(it.key()), &out);
    return out;
}

QStringList workloadDifferences(const SpecFingerprint &a, const SpecFingerprint &b)
{
    QStringList out;
    diff(toJson(a).value(kWorkload).toObject(), toJson(b).value(kWorkload).toObject(), QStringLiteral("workload."), &out);
    return out;
}

bool hasWorkload(const SpecFingerprint &fingerprint)
{
    return !fingerprint.workload.isEmpty();
}

} // namespace sb
