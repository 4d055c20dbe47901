#pragma once
// The sweep's concurrency levels: a typed list ("1, 2, 4, 8") plus a "powers of two up to N"
// helper. Text that does not parse is reported here; the spec keeps the last list that parsed.
#include <QList>
#include <QWidget>

class QLabel;
class QLineEdit;
class QSpinBox;

namespace sb::ui {

class ConcurrencyEditor : public QWidget
{
    Q_OBJECT
public:
    explicit ConcurrencyEditor(QWidget *parent = nullptr);

    void setLevels(const QList<int> &levels); // emits nothing
    QList<int> levels() const { return m_levels; }
    QString parseError() const { return m_error; }
    QLineEdit *lineEdit() const { return m_edit; }

    // "1, 2, 4" -> {1, 2, 4}; returns false and sets *error on anything else.
    static bool parse(const QString &text, QList<int> *out, QString *error);
    static QList<int> powersOfTwo(int upTo); // 1, 2, 4, ... <= upTo
    static QString format(const QList<int> &levels);

Q_SIGNALS:
    void edited();

private:
    void reparse();

    QLineEdit *m_edit = nullptr;
    QSpinBox *m_upTo = nullptr;
    QLabel *m_errorLabel = nullptr;
    QList<int> m_levels;
    QString m_error;
};

} // namespace sb::ui
