#include "ui/results/ReportFolder.h"

#include "engine/core/AtomicFile.h"

#include <QBuffer>
#include <QDir>
#include <QFileInfo>
#include <QImage>
#include <QMarginsF>
#include <QPageLayout>
#include <QPageSize>
#include <QPdfWriter>
#include <QRegularExpression>
#include <QTextDocument>
#include <QTextFrame>
#include <QTextFrameFormat>
#include <QUrl>

#include <exception>

namespace sysid::ui {

namespace {

bool fail(QString* error, const QString& message)
{
    if (error)
        *error = message;
    return false;
}

}  // namespace

QStringList reportFiles(const std::vector<ReportFigureSource>& figures)
{
    QStringList files{QStringLiteral("report.html"), QStringLiteral("report.pdf"), QStringLiteral("parameters.json"),
                      QStringLiteral("parameters.csv")};
    for (const auto& figure : figures)
        files << figure.file;
    return files;
}

QStringList folderEntries(const QString& folder)
{
    return QDir(folder).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System, QDir::Name);
}

bool writeReportPdf(const QString& html, const QString& folder, const QString& pdfPath, QString* error)
{
    try {
        core::checkCanWrite(pdfPath.toStdString());
    } catch (const core::FileWriteError& e) {
        return fail(error, QString::fromStdString(e.what()));
    }
    QByteArray bytes;
    QBuffer file(&bytes);
    file.open(QIODevice::WriteOnly);
    {
        QPdfWriter writer(&file);
        writer.setPageSize(QPageSize(QPageSize::A4));
        writer.setPageMargins(QMarginsF(18, 15, 18, 15), QPageLayout::Millimeter);
        writer.setCreator(QStringLiteral("sysid"));
        QTextDocument document;
        // The figures by their relative paths, loaded here: a printed copy of the document does
        // not resolve them against a base URL.
        const QDir dir(folder);
        static const QRegularExpression image(QStringLiteral("<img src=\"([^\"]+)\""));
        for (auto it = image.globalMatch(html); it.hasNext();) {
            const QString name = it.next().captured(1);
            document.addResource(QTextDocument::ImageResource, QUrl(name), QImage(dir.filePath(name)));
        }
        document.setHtml(html);
        // Laid out on the page's printable area in pixels of 96 dpi (the HTML's pixel widths),
        // so the page is the document's page and nothing adds a second margin.
        document.setPageSize(writer.pageLayout().paintRect(QPageLayout::Point).size() * (96.0 / 72.0));
        QTextFrameFormat root = document.rootFrame()->frameFormat();
        root.setMargin(0);
        document.rootFrame()->setFrameFormat(root);
        writer.setTitle(document.metaInformation(QTextDocument::DocumentTitle));
        document.print(&writer);
    }
    try {
        core::writeFileAtomically(pdfPath.toStdString(),
                                  std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())));
    } catch (const core::FileWriteError& e) {
        return fail(error, QString::fromStdString(e.what()));
    }
    return true;
}

bool writeReportFolder(const project::Project& project, const estimate::FitResult& result,
                       const project::ReportHeading& heading, const std::map<std::string, double>& trueValues,
                       const QString& folder, const std::vector<ReportFigureSource>& figures, QString* error)
{
    std::vector<std::pair<QString, ResultsPanel::FigureExporter>> exporters;
    std::vector<project::ReportFigure> shown;
    for (const auto& figure : figures) {
        exporters.push_back({figure.file, figure.write});
        shown.push_back({figure.file.toStdString(), figure.caption.toStdString(), figure.validation});
    }
    // The parameters and figures first: the HTML refers to them.
    if (!ResultsPanel::exportReport(result, folder, exporters, error, trueValues))
        return false;
    std::string html;
    try {
        html = project::htmlReport(project, result, heading, shown);
    } catch (const std::exception& e) {
        return fail(error, QStringLiteral("report: %1").arg(QString::fromUtf8(e.what())));
    }
    const QDir dir(folder);
    try {
        core::writeFileAtomically(dir.filePath(QStringLiteral("report.html")).toStdString(), html);
    } catch (const core::FileWriteError& e) {
        return fail(error, QString::fromStdString(e.what()));
    }
    return writeReportPdf(QString::fromStdString(html), folder, dir.filePath(QStringLiteral("report.pdf")), error);
}

}  // namespace sysid::ui
