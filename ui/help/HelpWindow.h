#pragma once

#include <QWidget>

class QLineEdit;
class QListWidget;
class QTextBrowser;

namespace sysid::ui {

// The help documents compiled into the program (docs/*.md as Qt resources).
enum class HelpTopic { ModelLanguage, QuickStart };

// A non-modal window showing one help document: its headings as a table of contents on the
// left (click to go there) and a search field that finds the next match as you type.
class HelpWindow : public QWidget {
    Q_OBJECT
public:
    explicit HelpWindow(HelpTopic topic, QWidget* parent = nullptr);

    QTextBrowser* browser() const { return browser_; }
    QListWidget* contents() const { return contents_; }
    QLineEdit* searchField() const { return search_; }

    // Finds the next occurrence of `text` after the cursor, wrapping to the top; false when the
    // document has none.
    bool findNext(const QString& text);

private:
    void fillContents();

    QTextBrowser* browser_;
    QListWidget* contents_;
    QLineEdit* search_;
};

// Shows the window of `topic`, made on first use and then raised again, owned by `parent`.
HelpWindow* showHelp(QWidget* parent, HelpTopic topic);

}  // namespace sysid::ui
