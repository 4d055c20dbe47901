#pragma once
// Typed, diagnosing access to a yaml-cpp document. Internal to the spec loader.
// Every read goes through `const YAML::Node &`: yaml-cpp 0.7's non-const operator[] inserts
// keys and can turn a sequence into a map (docs/ARCHITECTURE.md §9), so this file never uses operator[].
#include "spec/SpecDiagnostic.h"
#include <QHash>
#include <QString>
#include <QStringList>
#include <functional>
#include <vector>
#include <yaml-cpp/yaml.h>

namespace sb::yaml {

struct SourcePos {
    int line = 0;   // 1-based, 0 = unknown
    int column = 0; // 1-based, 0 = unknown
};
SourcePos toPos(const YAML::Mark &mark);

QString childPath(const QString &parent, const QString &key); // "a.b" (or "b" at the root)
QString indexPath(const QString &parent, int index);          // "a[3]"

// Collects diagnostics and remembers where each key path sits in the source, so semantic
// errors found later on the in-memory spec can be pointed back at a line and column.
class Context {
public:
    explicit Context(QString file) : m_file(std::move(file)) {}
    void error(SourcePos pos, const QString &keyPath, const QString &message);
    void warning(SourcePos pos, const QString &keyPath, const QString &message);
    void remember(const QString &keyPath, SourcePos pos) { m_positions.insert(keyPath, pos); }
    // Position of keyPath, or of its nearest recorded ancestor (a missing key → its parent).
    SourcePos locate(const QString &keyPath) const;
    // True when an error was already reported at keyPath or at one of its ancestors.
    bool coveredByError(const QString &keyPath) const;
    const QString &file() const { return m_file; }
    QList<SpecDiagnostic> &diagnostics() { return m_diags; }

private:
    QString m_file;
    QList<SpecDiagnostic> m_diags;
    QHash<QString, SourcePos> m_positions;
    QStringList m_errorPaths;
};

// Where to point at a value: its own mark, except for an empty value (`key:`), whose mark is
// wherever the parser went on to (often the next line); then the key's remembered position.
SourcePos valuePos(const Context &ctx, const YAML::Node &node, const QString &path);

// "a mapping", "a list", "an empty value" or the quoted scalar text (for "got ..." messages).
QString describe(const YAML::Node &node);
QString scalarText(const YAML::Node &node);
// A plain (unquoted) scalar that YAML would read as null: "", "~", "null".
bool isNullScalar(const YAML::Node &node);

// Scalar readers. Each reports "expected <what>, got <value>" at the node and returns false
// on a type mismatch, leaving `out` untouched. Ranges are the validator's job.
bool readString(Context &ctx, const YAML::Node &node, const QString &path, QString &out);
bool readBool(Context &ctx, const YAML::Node &node, const QString &path, bool &out);
bool readInt(Context &ctx, const YAML::Node &node, const QString &path, int &out, const QString &what);
bool readNumber(Context &ctx, const YAML::Node &node, const QString &path, double &out, const QString &what);
// Parses without reporting (used for `true | false | {...}` unions).
bool parseBool(const YAML::Node &node, bool &out);

// A mapping whose keys are checked against a known list on construction: unknown keys are
// reported by name with a did-you-mean, duplicate keys are reported, every key's position is
// remembered. Values are then fetched by name.
class MapReader {
public:
    // `elsewhere(key)` may return a hint such as "it belongs under sweep" for known keys of
    // other sections.
    using Hint = std::function<QString(const QString &key)>;
    MapReader(Context &ctx, const YAML::Node &map, QString path, QStringList known, const Hint &elsewhere = {});

    bool has(const QString &key) const { return find(key) != nullptr; }
    const YAML::Node *find(const QString &key) const;
    QString path(const QString &key) const { return childPath(m_path, key); }
    SourcePos keyPos(const QString &key) const;
    Context &context() const { return m_ctx; }

    // Convenience: read the key if present; report and keep `out` on a type error.
    void string(const QString &key, QString &out) const;
    void boolean(const QString &key, bool &out) const;
    void integer(const QString &key, int &out, const QString &what) const;
    void number(const QString &key, double &out, const QString &what) const;

    struct Entry {
        QString key;
        SourcePos keyPos;
        YAML::Node value;
    };
    const std::vector<Entry> &entries() const { return m_entries; }

private:
    Context &m_ctx;
    QString m_path;
    std::vector<Entry> m_entries; // known keys only, first occurrence
};

} // namespace sb::yaml
