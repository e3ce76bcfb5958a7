#include "ui/help/HelpWindow.h"

#include "ui/main/ScreenFit.h"

#include <QColor>
#include <QFile>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QSplitter>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextDocument>
#include <QVBoxLayout>

namespace sysid::ui {

namespace {

struct TopicInfo {
    const char* resource;
    const char* objectName;
};

TopicInfo topicInfo(HelpTopic topic)
{
    switch (topic) {
    case HelpTopic::ModelLanguage: return {":/help/model-language.md", "helpModelLanguage"};
    case HelpTopic::QuickStart: return {":/help/quick-start.md", "helpQuickStart"};
    }
    return {"", ""};
}

// Markdown as QTextDocument imports it runs code into the prose and headings into the text
// above them: shade the code blocks and give the headings room.
void setReadingStyle(QTextDocument* document)
{
    for (QTextBlock block = document->begin(); block.isValid(); block = block.next()) {
        QTextBlockFormat format = block.blockFormat();
        if (format.hasProperty(QTextFormat::BlockCodeFence)) {
            format.setBackground(QColor(0xf3, 0xf4, 0xf6));
            format.setLeftMargin(8);
        } else if (format.headingLevel() >= 2) {
            format.setTopMargin(18);
            format.setBottomMargin(6);
        } else {
            continue;
        }
        QTextCursor(block).setBlockFormat(format);
    }
}

QString readResource(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(file.readAll());
}

}  // namespace

HelpWindow::HelpWindow(HelpTopic topic, QWidget* parent) :
    QWidget(parent, Qt::Window), browser_(new QTextBrowser), contents_(new QListWidget), search_(new QLineEdit)
{
    const TopicInfo info = topicInfo(topic);
    setObjectName(QString::fromLatin1(info.objectName));

    browser_->setOpenExternalLinks(true);
    browser_->document()->setDocumentMargin(12);
    browser_->setMarkdown(readResource(QString::fromLatin1(info.resource)));
    setReadingStyle(browser_->document());
    setWindowTitle(browser_->document()->firstBlock().text() + tr(" — sysid"));

    search_->setPlaceholderText(tr("Search (Enter: next match)"));
    search_->setClearButtonEnabled(true);
    search_->setToolTip(tr("Finds the text in this document; Enter goes to the next match"));
    connect(search_, &QLineEdit::textEdited, this, [this](const QString& text) {
        // Search again from the top while the text is being typed, so the first match shows.
        browser_->moveCursor(QTextCursor::Start);
        findNext(text);
    });
    connect(search_, &QLineEdit::returnPressed, this, [this] { findNext(search_->text()); });

    fillContents();
    contents_->setWordWrap(true);
    contents_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    connect(contents_, &QListWidget::currentRowChanged, this, [this](int row) {
        if (row < 0)
            return;
        const QTextBlock block =
            browser_->document()->findBlockByNumber(contents_->item(row)->data(Qt::UserRole).toInt());
        QTextCursor cursor(block);
        browser_->setTextCursor(cursor);
        // Put the heading at the top rather than wherever ensureCursorVisible leaves it.
        browser_->moveCursor(QTextCursor::End);
        browser_->setTextCursor(cursor);
    });

    auto* left = new QWidget;
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(search_);
    leftLayout->addWidget(new QLabel(tr("Contents")));
    leftLayout->addWidget(contents_);

    auto* splitter = new QSplitter;
    splitter->addWidget(left);
    splitter->addWidget(browser_);
    splitter->setStretchFactor(0, 0);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({250, 650});
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(splitter);
    fitToScreen(this, QSize(940, 640));
}

void HelpWindow::fillContents()
{
    contents_->clear();
    for (QTextBlock block = browser_->document()->begin(); block.isValid(); block = block.next()) {
        const int level = block.blockFormat().headingLevel();
        if (level < 1 || level > 3)
            continue;
        auto* item = new QListWidgetItem(QString(2 * (level - 1), QLatin1Char(' ')) + block.text(), contents_);
        item->setData(Qt::UserRole, block.blockNumber());
        if (level == 1) {
            QFont bold = item->font();
            bold.setBold(true);
            item->setFont(bold);
        }
    }
}

bool HelpWindow::findNext(const QString& text)
{
    if (text.isEmpty())
        return false;
    if (browser_->find(text))
        return true;
    browser_->moveCursor(QTextCursor::Start);
    return browser_->find(text);
}

HelpWindow* showHelp(QWidget* parent, HelpTopic topic)
{
    const QString name = QString::fromLatin1(topicInfo(topic).objectName);
    auto* window = parent->findChild<HelpWindow*>(name, Qt::FindDirectChildrenOnly);
    if (!window)
        window = new HelpWindow(topic, parent);
    window->show();
    window->raise();
    window->activateWindow();
    return window;
}

}  // namespace sysid::ui
