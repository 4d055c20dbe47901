#include "report/SecretScrub.h"
#include "spec/SpecIO.h"
#include "spec/YamlBounds.h"
#include <QRegularExpression>
#include <yaml-cpp/yaml.h>

namespace sb {

namespace {
const QString kApiKey = QStringLiteral("api_key");
const QString kApiKeyEnv = QStringLiteral("api_key_env");

QString scalar(const YAML::Node &n) { return QString::fromStdString(n.Scalar()); }

void addSecret(QStringList *out, const QString &s)
{
    SecretSet set;
    set.add(s); // also the bare key of "Bearer sk-..." and each cookie value
    for (const QString &v : set.values())
        if (!out->contains(v))
            out->append(v);
}

// Walks the document (const access only, docs/ARCHITECTURE.md §9) collecting api_key values, api_key_env values
// resolved from the environment, and sensitive header values (both map and list header forms).
void collect(const YAML::Node &node, QStringList *secrets, bool inHeaders)
{
    if (node.IsMap()) {
        for (auto it = node.begin(); it != node.end(); ++it) {
            const QString key = it->first.IsScalar() ? scalar(it->first) : QString();
            const YAML::Node value = it->second; // a copy: it-> yields a temporary pair
            if (value.IsScalar()) {
                if (key == kApiKey || (inHeaders && isCredentialHeader(key)))
                    addSecret(secrets, scalar(value));
                else if (key == kApiKeyEnv && !scalar(value).isEmpty())
                    addSecret(secrets, qEnvironmentVariable(scalar(value).toLocal8Bit().constData()));
            }
            collect(value, secrets, key == QLatin1String("headers"));
        }
        // Headers written as [{name: X, value: Y}] pairs.
        if (inHeaders || node["name"]) {
            const YAML::Node &name = node["name"];
            const YAML::Node &value = node["value"];
            if (name && value && name.IsScalar() && value.IsScalar() && isCredentialHeader(scalar(name)))
                addSecret(secrets, scalar(value));
        }
    } else if (node.IsSequence()) {
        for (const YAML::Node &child : node) {
            // Headers written as ["Name: value"] strings.
            if (inHeaders && child.IsScalar()) {
                const QString line = scalar(child);
                const qsizetype colon = line.indexOf(QLatin1Char(':'));
                if (colon > 0 && isCredentialHeader(line.left(colon)))
                    addSecret(secrets, line.mid(colon + 1));
            }
            collect(child, secrets, inHeaders);
        }
    }
}

// Structural fallback writer: the same tree minus every api_key entry.
void emitWithout(YAML::Emitter &out, const YAML::Node &node)
{
    if (node.IsMap()) {
        out << YAML::BeginMap;
        for (auto it = node.begin(); it != node.end(); ++it) {
            if (it->first.IsScalar() && scalar(it->first) == kApiKey)
                continue;
            out << YAML::Key;
            emitWithout(out, it->first);
            out << YAML::Value;
            emitWithout(out, it->second);
        }
        out << YAML::EndMap;
    } else if (node.IsSequence()) {
        out << YAML::BeginSeq;
        for (const YAML::Node &child : node)
            emitWithout(out, child);
        out << YAML::EndSeq;
    } else if (node.IsScalar()) {
        if (node.Tag() == "!") // was quoted: keep it a string
            out << YAML::DoubleQuoted << node.Scalar();
        else
            out << node.Scalar();
    } else {
        out << YAML::Null;
    }
}

} // namespace

QStringList secretsInSpec(const QByteArray &yaml)
{
    QStringList secrets;
    try {
        if (yaml::checkYamlBounds(yaml)) // an alias bomb: walking the tree would never end
            throw YAML::Exception(YAML::Mark::null_mark(), "too large once aliases are expanded");
        collect(YAML::Load(yaml.toStdString()), &secrets, false);
    } catch (const YAML::Exception &) {
        // Not YAML: fall back to line matching so that a broken file still yields its key.
        static const QRegularExpression line(QStringLiteral("^\\s*-?\\s*api_key\\s*:\\s*[\"']?([^\"'#\\s]+)"),
                                             QRegularExpression::MultilineOption);
        for (auto it = line.globalMatch(QString::fromUtf8(yaml)); it.hasNext();)
            addSecret(&secrets, it.next().captured(1));
    }
    return secrets;
}

StrippedSpec stripSpecYaml(const QByteArray &yaml)
{
    StrippedSpec out;
    out.secrets = secretsInSpec(yaml);
    const SpecLoadResult loaded = loadSpecText(yaml, QStringLiteral("sweep.yaml"));
    if (loaded.spec) {
        out.yaml = saveSpecYaml(*loaded.spec, SecretPolicy::Strip);
        for (const ServerSpec &s : loaded.spec->servers) {
            addSecret(&out.secrets, s.apiKey);
            if (!s.apiKeyEnv.isEmpty())
                addSecret(&out.secrets, qEnvironmentVariable(s.apiKeyEnv.toLocal8Bit().constData()));
            for (const auto &h : s.headers)
                if (isCredentialHeader(h.first))
                    addSecret(&out.secrets, h.second);
        }
    } else {
        try {
            if (const auto exceeded = yaml::checkYamlBounds(yaml))
                throw YAML::Exception(YAML::Mark::null_mark(), exceeded->message.toStdString());
            YAML::Emitter e;
            emitWithout(e, YAML::Load(yaml.toStdString()));
            out.yaml = QByteArray(e.c_str()) + '\n';
            out.warnings.append(QStringLiteral("sweep.yaml did not load as a spec; api_key entries were removed structurally"));
        } catch (const YAML::Exception &ex) {
            out.yaml.clear();
            out.warnings.append(QStringLiteral("sweep.yaml is not valid YAML (%1); it was left out of the export")
                                    .arg(QString::fromStdString(ex.what())));
        }
    }
    // Read from the text, so a sweep.yaml that no longer loads still names its variables.
    static const QRegularExpression keyEnv(QStringLiteral("\\bapi_key_env\\s*:\\s*[\"']?([A-Za-z_][A-Za-z0-9_]*)"));
    for (auto it = keyEnv.globalMatch(QString::fromUtf8(yaml)); it.hasNext();) {
        const QString name = it.next().captured(1);
        if (qEnvironmentVariable(name.toLocal8Bit().constData()).trimmed().isEmpty() && !out.unsetKeyVariables.contains(name))
            out.unsetKeyVariables.append(name);
    }
    out.secrets.removeAll(QString());
    redactSecrets(&out.yaml, out.secrets); // sensitive header values stay in the spec model
    return out;
}

namespace {
SecretSet setOf(const QStringList &secrets)
{
    SecretSet set;
    for (const QString &s : secrets)
        set.add(s);
    return set;
}
} // namespace

int redactSecrets(QByteArray *data, const QStringList &secrets)
{
    int n = 0;
    *data = setOf(secrets).scrub(std::move(*data), &n);
    return n;
}

bool containsSecret(const QByteArray &data, const QStringList &secrets)
{
    return setOf(secrets).containedIn(data);
}

} // namespace sb
