// sysid spectrum: each column's spectral peak as a starting natural frequency, a low-pass cutoff to
// start from, the filter's gain, and the spectra as CSV; on a record whose answer is known in closed
// form (a cosine of 1.25 Hz) and on the bundled oscillator record.

#include "SysidProcess.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <numbers>

using sysid::test::describe;
using sysid::test::kExamples;
using sysid::test::kSysid;
using sysid::test::readFile;
using sysid::test::Run;
using sysid::test::runSysid;
using sysid::test::writeFile;

namespace {

// t, a = cos(2 pi 1.25 t), flat = 3 on t = 0, 0.01, ..., 19.99 (2000 samples at 100 Hz: 1.25 Hz
// falls on a bin of the whole-record spectrum).
QByteArray cosineCsv()
{
    QByteArray csv = "t,a,flat\n";
    for (int i = 0; i < 2000; ++i) {
        const double t = 0.01 * i;
        csv += QByteArray::number(t, 'g', 17) + "," +
            QByteArray::number(std::cos(2 * std::numbers::pi * 1.25 * t), 'g', 17) + ",3\n";
    }
    return csv;
}

// The words of the summary's line for `column`: name, peak, omega, omega^2 (and the gain).
QStringList rowOf(const QString& out, const QString& column)
{
    for (const QString& line : out.split('\n'))
        if (line.startsWith(column + ' '))
            return line.split(' ', Qt::SkipEmptyParts);
    return {};
}

}  // namespace

class TestCliSpectrum : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY2(QFile::exists(kSysid), qPrintable(kSysid + " is not built")); }

    void cosinePeakAndCutoff()
    {
        QTemporaryDir tmp;
        const QString data = tmp.filePath("cos.csv"), out = tmp.filePath("spectrum.csv");
        QVERIFY(writeFile(data, cosineCsv()));
        const Run r = runSysid({"spectrum", data, "--low-pass", "2.5", "-o", out});
        QVERIFY2(r.exitCode == 0, describe(r));
        QVERIFY2(r.out.contains("2000 samples at 100 Hz (Nyquist 50 Hz)"), describe(r));
        const QStringList a = rowOf(r.out, "a");
        QVERIFY2(a.size() == 5, describe(r));
        const double f = a[1].toDouble(), w = a[2].toDouble(), w2 = a[3].toDouble(), gain = a[4].toDouble();
        QVERIFY2(std::abs(f - 1.25) < 0.01, describe(r));
        QVERIFY2(std::abs(w - 2 * std::numbers::pi * f) < 1e-3 * w, describe(r));
        QVERIFY2(std::abs(w2 - w * w) < 1e-3 * w2, describe(r));
        // |H|^2 of an order-4 Butterworth at half its cutoff: 1 / (1 + 0.5^8).
        QVERIFY2(std::abs(gain - 1 / (1 + std::pow(0.5, 8))) < 2e-3, describe(r));
        QVERIFY2(rowOf(r.out, "flat").join(' ').contains("no peak"), describe(r));
        QVERIFY2(r.out.contains("a low-pass cutoff to start from: 6.3 Hz"), describe(r));  // 5 x 1.25 Hz, 2 digits
        QVERIFY2(r.out.contains("low-pass: zero-phase Butterworth low-pass of order 4 at 2.5 Hz"), describe(r));
        const QStringList lines = QString::fromUtf8(readFile(out)).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.front(), QStringLiteral("f_hz,a_psd,flat_psd,low_pass_gain"));
        QCOMPARE(lines.size(), 1 + 129);  // 256-sample segments: 129 frequencies up to Nyquist
    }

    // The bundled oscillator (Omega^2 = 25 with a hardening cubic spring): the peak is near 5 rad/s.
    void oscillatorRecord()
    {
        const Run r = runSysid({"spectrum", kExamples + "data/sdof_cubic_5pct.csv", "--column", "u"});
        QVERIFY2(r.exitCode == 0, describe(r));
        const QStringList u = rowOf(r.out, "u");
        QVERIFY2(u.size() == 4, describe(r));
        QVERIFY2(u[2].toDouble() > 4.8 && u[2].toDouble() < 6, describe(r));
    }

    void errors_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("message");
        const QString data = kExamples + "data/sdof_cubic_5pct.csv";
        QTest::newRow("no file") << QStringList{"spectrum"} << 2 << "give a data file";
        QTest::newRow("missing file") << QStringList{"spectrum", "nothing.csv"} << 1 << "nothing.csv";
        QTest::newRow("unknown column") << QStringList{"spectrum", data, "--column", "v"} << 1 << "no data column 'v'";
        QTest::newRow("cutoff above Nyquist")
            << QStringList{"spectrum", data, "--low-pass", "40"} << 2 << "--low-pass: Butterworth cutoff 40 Hz";
    }

    void errors()
    {
        QFETCH(QStringList, args);
        QFETCH(int, exitCode);
        QFETCH(QString, message);
        const Run r = runSysid(args);
        QVERIFY2(r.exitCode == exitCode && r.err.contains(message), describe(r));
    }
};

QTEST_GUILESS_MAIN(TestCliSpectrum)
#include "test_cli_spectrum.moc"
