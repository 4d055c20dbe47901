#pragma once
// The spec reference's own words for each key, for the designer's "What's this?" (Shift+F1):
// the tables of docs/spec-reference.md, bundled with the user guide, are the one source of what
// a key means, its type and its default — the form does not keep a second copy to drift.
#include <QHash>
#include <QString>

namespace sb::ui {

class SpecHelp
{
public:
    // Where a key is looked up: the spec from its top (`workload.input_tokens`), or one server's
    // mapping (`reset_kv_cache.path`), as the designer's forms bind their fields.
    enum class Scope { Spec, Server };

    // Parsed from the bundled reference once.
    static const SpecHelp &bundled();
    // Parses a reference's markdown (tests hand in their own).
    static SpecHelp fromMarkdown(const QString &markdown);

    // Rich text for a "What's this?" popup: the key, what it means, its type and default; empty
    // for a key the reference does not list.
    QString whatsThis(Scope scope, const QString &key) const;
    int size() const { return int(m_entries.size()); }

private:
    struct Entry {
        QString type, defaultValue, meaning;
    };
    QHash<QString, Entry> m_entries; // "spec:workload.input_tokens", "server:reset_kv_cache.path"
};

} // namespace sb::ui
