#include "designer/ConcurrencyEditor.h"
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QVBoxLayout>

namespace sb::ui {

ConcurrencyEditor::ConcurrencyEditor(QWidget *parent)
    : QWidget(parent)
{
    m_edit = new QLineEdit;
    m_edit->setObjectName(QStringLiteral("concurrencyList"));
    m_edit->setPlaceholderText(QStringLiteral("1, 2, 4, 8"));
    m_edit->setToolTip(tr("Concurrency levels, separated by commas or spaces; each level is one cell per server"));
    m_upTo = new QSpinBox;
    m_upTo->setObjectName(QStringLiteral("powersUpTo"));
    m_upTo->setRange(1, 100000);
    m_upTo->setValue(64);
    m_upTo->setPrefix(tr("up to "));
    auto *fill = new QPushButton(tr("Powers of two"));
    fill->setObjectName(QStringLiteral("powersOfTwo"));
    fill->setToolTip(tr("Replace the list with 1, 2, 4, ... up to the number beside"));
    m_errorLabel = new QLabel;
    m_errorLabel->setStyleSheet(QStringLiteral("color: #d0453a;"));
    m_errorLabel->setWordWrap(true);
    m_errorLabel->setVisible(false);

    auto *helper = new QHBoxLayout;
    helper->setContentsMargins(0, 0, 0, 0);
    helper->addWidget(fill);
    helper->addWidget(m_upTo, 1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(m_edit);
    layout->addLayout(helper);
    layout->addWidget(m_errorLabel);

    connect(m_edit, &QLineEdit::textEdited, this, [this] {
        reparse();
        Q_EMIT edited();
    });
    connect(fill, &QPushButton::clicked, this, [this] {
        m_edit->setText(format(powersOfTwo(m_upTo->value())));
        reparse();
        Q_EMIT edited();
    });
}

void ConcurrencyEditor::setLevels(const QList<int> &levels)
{
    m_levels = levels;
    m_edit->setText(format(levels));
    reparse();
}

void ConcurrencyEditor::reparse()
{
    QList<int> parsed;
    if (parse(m_edit->text(), &parsed, &m_error))
        m_levels = parsed;
    m_errorLabel->setText(m_error.isEmpty() ? QString() : QStringLiteral("✗ ") + m_error);
    m_errorLabel->setVisible(!m_error.isEmpty());
}

bool ConcurrencyEditor::parse(const QString &text, QList<int> *out, QString *error)
{
    out->clear();
    error->clear();
    static const QRegularExpression sep(QStringLiteral("[,;\\s]+"));
    const QStringList parts = text.split(sep, Qt::SkipEmptyParts);
    for (const QString &part : parts) {
        bool ok = false;
        const int v = part.toInt(&ok);
        if (!ok) {
            *error = tr("“%1” is not a whole number; expected a list such as 1, 2, 4, 8").arg(part);
            out->clear();
            return false;
        }
        out->append(v); // ranges and duplicates are the validator's job, so messages match the CLI
    }
    return true;
}

QList<int> ConcurrencyEditor::powersOfTwo(int upTo)
{
    QList<int> out;
    for (qint64 v = 1; v <= upTo; v *= 2)
        out.append(int(v));
    return out;
}

QString ConcurrencyEditor::format(const QList<int> &levels)
{
    QStringList parts;
    for (int v : levels)
        parts << QString::number(v);
    return parts.join(QStringLiteral(", "));
}

} // namespace sb::ui
