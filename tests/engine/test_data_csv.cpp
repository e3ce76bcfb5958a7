// CSV import and export (engine/data): every rule and every error of
// parseCsv/readCsv with its place, the writer's exact round trip, and a fuzz
// test that only DataError ever leaves the reader.

#include "TextTestSupport.h"

#include "engine/data/CsvReader.h"
#include "engine/data/CsvWriter.h"
#include "engine/data/DataError.h"
#include "engine/data/DataTable.h"

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

using namespace sysid::data;
using namespace std::string_literals;
using sysid::test::contains;
using sysid::test::slurp;

namespace {

const std::string kSource = "f.csv";

std::optional<DataError> parseError(std::string_view text, const CsvOptions& options = {})
{
    try {
        parseCsv(text, kSource, options);
    } catch (const DataError& e) {
        return e;
    }
    return std::nullopt;
}

}  // namespace

// Parses TEXT with OPTIONS, expects a DataError at LINE / COLUMN / NAME whose
// message contains FRAGMENT, and checks what() shows the place first.
#define CHECK_CSV_ERROR(text, options, expLine, expColumn, expName, fragment)                                          \
    do {                                                                                                               \
        const auto err_ = parseError((text), (options));                                                               \
        QVERIFY2(err_.has_value(), "expected a DataError");                                                            \
        QVERIFY2(contains(err_->message, (fragment)), err_->what());                                                   \
        QCOMPARE(err_->source, kSource);                                                                               \
        QCOMPARE(err_->line, (expLine));                                                                               \
        QCOMPARE(err_->column, (expColumn));                                                                           \
        QCOMPARE(err_->columnName, std::string(expName));                                                              \
        std::string place_ = kSource;                                                                                  \
        if ((expLine) > 0)                                                                                             \
            place_ += ":" + std::to_string(expLine);                                                                   \
        place_ += ": ";                                                                                                \
        if (!std::string(expName).empty())                                                                             \
            place_ += "column '" + std::string(expName) + "': ";                                                       \
        else if ((expColumn) > 0)                                                                                      \
            place_ += "column " + std::to_string(expColumn) + ": ";                                                    \
        QVERIFY2(std::string(err_->what()) == place_ + err_->message, err_->what());                                   \
    } while (false)

class TestDataCsv : public QObject {
    Q_OBJECT

private slots:
    void parsesCommaSeparatedFile()
    {
        const DataTable t = parseCsv("t,x,y\n0,1.5,-2\n0.1,2.5e-3,4\n0.2,3,1E2\n", "a.csv");
        QCOMPARE(t.source, "a.csv"s);
        QCOMPARE(t.columnNames, (std::vector<std::string>{"t", "x", "y"}));
        QCOMPARE(t.rowCount(), std::size_t(3));
        QCOMPARE(t.timeColumn, std::size_t(0));
        QVERIFY(t.time() == (std::vector<double>{0, 0.1, 0.2}));
        QVERIFY(t.column("x") == (std::vector<double>{1.5, 2.5e-3, 3}));
        QVERIFY(t.column("y") == (std::vector<double>{-2, 4, 100}));
    }

    void detectsSeparator_data()
    {
        QTest::addColumn<QString>("text");
        QTest::newRow("comma") << "t,x\n0,1\n1,2\n";
        QTest::newRow("semicolon") << "t;x\n0;1\n1;2\n";
        QTest::newRow("tab") << "t\tx\n0\t1\n1\t2\n";
        QTest::newRow("semicolon, names with commas") << "t;x,1\n0;1\n1;2\n";
        QTest::newRow("tab, blanks around fields") << " t \t x \n 0 \t 1 \n1\t2\n";
    }
    void detectsSeparator()
    {
        QFETCH(QString, text);
        const DataTable t = parseCsv(text.toStdString(), kSource);
        QCOMPARE(t.columnNames.size(), std::size_t(2));
        QCOMPARE(t.columnNames[0], "t"s);
        QVERIFY(t.columnNames[1] == "x" || t.columnNames[1] == "x,1");
        QVERIFY(t.columns[0] == (std::vector<double>{0, 1}));
        QVERIFY(t.columns[1] == (std::vector<double>{1, 2}));
    }

    void explicitSeparatorOverridesDetection()
    {
        CsvOptions o;
        o.separator = ',';
        // Detection would pick ';' (two of them); the option says ','.
        const DataTable t = parseCsv("t,a;b;c\n0,1\n1,2\n", kSource, o);
        QCOMPARE(t.columnNames, (std::vector<std::string>{"t", "a;b;c"}));
        o.separator = '|';
        CHECK_CSV_ERROR("t|x\n0|1\n", o, 0, 0, "", "expected ',', ';' or tab");
    }

    void singleColumnFile()
    {
        const DataTable t = parseCsv("time\n0\n1\n", kSource);
        QCOMPARE(t.columnNames, (std::vector<std::string>{"time"}));
        QVERIFY(t.time() == (std::vector<double>{0, 1}));
    }

    void commentsAndBlankLines()
    {
        const std::string text = "# recorded 2024-01-01; a;b;c;d\n"  // separators in a comment do not count
                                 "\n"
                                 "   # indented comment\n"
                                 "t,x # seconds, metres\n"
                                 "\t\n"
                                 "0,1 # first\n"
                                 "# between rows\n"
                                 "\n"
                                 "1,2#no space\n"
                                 "   \n";
        const DataTable t = parseCsv(text, kSource);
        QCOMPARE(t.columnNames, (std::vector<std::string>{"t", "x"}));
        QVERIFY(t.columns[0] == (std::vector<double>{0, 1}));
        QVERIFY(t.columns[1] == (std::vector<double>{1, 2}));
        // Line numbers stay physical: the bad cell is on line 11.
        CHECK_CSV_ERROR(text + "2,oops\n", CsvOptions{}, 11, 2, "x", "'oops'");
    }

    void hashInsideQuotesIsNotAComment()
    {
        const DataTable t = parseCsv("\"t\",\"count #\"\n0,1\n", kSource);
        QCOMPARE(t.columnNames, (std::vector<std::string>{"t", "count #"}));
    }

    void lineEndings_data()
    {
        QTest::addColumn<QString>("eol");
        QTest::newRow("LF") << "\n";
        QTest::newRow("CRLF") << "\r\n";
        QTest::newRow("CR") << "\r";
    }
    void lineEndings()
    {
        QFETCH(QString, eol);
        const std::string e = eol.toStdString();
        const DataTable t = parseCsv("t,x" + e + "0,1" + e + e + "1,2", kSource);  // no final line end
        QVERIFY(t.columns[1] == (std::vector<double>{1, 2}));
        CHECK_CSV_ERROR("t,x" + e + "0,1" + e + "# c" + e + "1,?" + e, CsvOptions{}, 4, 2, "x", "'?'");
    }

    void utf8ByteOrderMarkIsSkipped()
    {
        const DataTable t = parseCsv("\xEF\xBB\xBFt,x\n0,1\n", kSource);
        QCOMPARE(t.columnNames[0], "t"s);
        QCOMPARE(t.timeColumn, std::size_t(0));
    }

    void decimalComma()
    {
        CsvOptions o;
        o.decimalPoint = ',';
        DataTable t = parseCsv("t;x\n0,5;-1,25e-1\n1;2\n", kSource, o);
        QVERIFY(t.columns[0] == (std::vector<double>{0.5, 1}));
        QVERIFY(t.columns[1] == (std::vector<double>{-0.125, 2}));
        t = parseCsv("t\tx\n0,5\t3,5\n", kSource, o);
        QVERIFY(t.columns[1] == (std::vector<double>{3.5}));
        // A single column: no separator in the header, so none is needed.
        t = parseCsv("t\n0,5\n1,5\n", kSource, o);
        QVERIFY(t.columns[0] == (std::vector<double>{0.5, 1.5}));
        // A '.' is not accepted when ',' is the decimal point.
        CHECK_CSV_ERROR("t;x\n0;1.5\n", o, 2, 2, "x", "expected a number with ',' as the decimal point");
        // ',' cannot be both.
        CHECK_CSV_ERROR("t,x\n0,1\n", o, 1, 0, "", "expected ';' or tab as the separator");
        o.separator = ',';
        CHECK_CSV_ERROR("t,x\n0,1\n", o, 0, 0, "", "both ','");
        o.separator = 0;
        o.decimalPoint = 'x';
        CHECK_CSV_ERROR("t,x\n0,1\n", o, 0, 0, "", "expected '.' or ','");
        // Decimal commas with the default '.' get a hint.
        CHECK_CSV_ERROR("t;x\n0;1,5\n", CsvOptions{}, 2, 2, "x", "set the decimal point to ','");
    }

    void timeColumnFromOption()
    {
        CsvOptions o;
        o.timeColumn = "s";
        const DataTable t = parseCsv("x,s,time\n5,0,9\n4,1,8\n", kSource, o);
        QCOMPARE(t.timeColumn, std::size_t(1));
        QVERIFY(t.time() == (std::vector<double>{0, 1}));
        // Exact match only, and the error lists what exists.
        o.timeColumn.emplace("S");  // (assigning a literal trips GCC 12 -Wrestrict, bug 105329)
        CHECK_CSV_ERROR("x,s,time\n5,0,9\n", o, 1, 0, "S", "expected one of: 'x', 's', 'time'");
    }

    void timeColumnByName_data()
    {
        QTest::addColumn<QString>("header");
        QTest::addColumn<int>("expected");
        QTest::newRow("t") << "x,t" << 1;
        QTest::newRow("T") << "x,T" << 1;
        QTest::newRow("time") << "x,time" << 1;
        QTest::newRow("Time") << "x,y,Time" << 2;
        QTest::newRow("TIME") << "x,TIME" << 1;
        QTest::newRow("first of two") << "x,t,time" << 1;
        QTest::newRow("none: first column") << "s,x" << 0;
        QTest::newRow("times is not time") << "x,times" << 0;
    }
    void timeColumnByName()
    {
        QFETCH(QString, header);
        QFETCH(int, expected);
        const std::string h = header.toStdString();
        const std::size_t n = static_cast<std::size_t>(std::count(h.begin(), h.end(), ',') + 1);
        std::string row0, row1;
        for (std::size_t c = 0; c < n; ++c) {
            const bool isTime = c == static_cast<std::size_t>(expected);
            if (c > 0) {
                row0 += ',';
                row1 += ',';
            }
            row0 += isTime ? '0' : '5';
            row1 += isTime ? '1' : '5';  // other columns constant
        }
        const DataTable t = parseCsv(h + "\n" + row0 + "\n" + row1 + "\n", kSource);
        QCOMPARE(t.timeColumn, static_cast<std::size_t>(expected));
    }

    void headerNames()
    {
        const DataTable t =
            parseCsv("  t , \"x pos\" ,\"say \"\"hi\"\"\", \" padded \" ,\"a,b\"\n0,1,2,3,4\n", kSource);
        QCOMPARE(t.columnNames, (std::vector<std::string>{"t", "x pos", "say \"hi\"", "padded", "a,b"}));
        QVERIFY(t.column("a,b") == (std::vector<double>{4}));
        // Names that are quoted numbers are names.
        const DataTable u = parseCsv("\"1\",\"2\"\n0,1\n", kSource);
        QCOMPARE(u.columnNames, (std::vector<std::string>{"1", "2"}));
    }

    void headerErrors()
    {
        CHECK_CSV_ERROR("t,x,x\n0,1,2\n", CsvOptions{}, 1, 3, "x", "duplicate column name (also column 2)");
        CHECK_CSV_ERROR("# c\nt,,y\n0,1,2\n", CsvOptions{}, 2, 2, "", "column 2 has an empty name");
        CHECK_CSV_ERROR("t,x,\n0,1,2\n", CsvOptions{}, 1, 3, "", "column 3 has an empty name");
        CHECK_CSV_ERROR("t,\"\"\n0,1\n", CsvOptions{}, 1, 2, "", "empty name");
        CHECK_CSV_ERROR("0,1\n1,2\n", CsvOptions{}, 1, 0, "", "expected a header line of column names");
        CHECK_CSV_ERROR("\n\n0;1.5\n1;2\n", CsvOptions{}, 3, 0, "", "the header line holds only numbers");
    }

    void quotingErrors()
    {
        CHECK_CSV_ERROR("t,\"x\n0,1\n", CsvOptions{}, 1, 2, "", "unterminated quoted field");
        CHECK_CSV_ERROR("t,\"x\"y\n0,1\n", CsvOptions{}, 1, 2, "", "after the closing '\"'");
        CHECK_CSV_ERROR("t,x\"y\n0,1\n", CsvOptions{}, 1, 2, "", "inside an unquoted field");
        CHECK_CSV_ERROR("t,x\n0,\"1\n", CsvOptions{}, 2, 2, "x", "unterminated quoted field");
        CHECK_CSV_ERROR("t,x\n0,1\"\n", CsvOptions{}, 2, 2, "x", "inside an unquoted field");
        // Quoted numbers are numbers.
        const DataTable t = parseCsv("t,x\n\"0\", \"1.5\" \n", kSource);
        QVERIFY(t.columns[1] == (std::vector<double>{1.5}));
    }

    void acceptedNumbers()
    {
        const DataTable t =
            parseCsv("t,x\n1,+1\n2,-.5\n3,5.\n4,1e5\n5,1E-3\n6, 2 \n7,-0\n8,1e-400\n9,-1e-400\n10,4.9e-324\n"
                     "11,1.7976931348623157e308\n12,0.1\n",
                     kSource);
        const std::vector<double>& x = t.column("x");
        QCOMPARE(x.size(), std::size_t(12));
        QVERIFY(x[0] == 1 && x[1] == -0.5 && x[2] == 5 && x[3] == 1e5 && x[4] == 1e-3 && x[5] == 2);
        QVERIFY(x[6] == 0 && std::signbit(x[6]));
        QVERIFY(x[7] == 0 && !std::signbit(x[7]));  // underflow reads as zero
        QVERIFY(x[8] == 0 && std::signbit(x[8]));
        QVERIFY(x[9] == std::numeric_limits<double>::denorm_min());
        QVERIFY(x[10] == std::numeric_limits<double>::max());
        QVERIFY(x[11] == 0.1);
    }

    void nonNumericCell_data()
    {
        QTest::addColumn<QString>("cell");
        QTest::addColumn<QString>("quoted");
        QTest::newRow("word") << "abc"
                              << "'abc'";
        QTest::newRow("trailing text") << "1.5m"
                                       << "'1.5m'";
        QTest::newRow("two numbers") << "1 2"
                                     << "'1 2'";
        QTest::newRow("hex") << "0x10"
                             << "'0x10'";
        QTest::newRow("bare exponent") << "1e"
                                       << "'1e'";
        QTest::newRow("two signs") << "+-1"
                                   << "'+-1'";
        QTest::newRow("lone sign") << "-"
                                   << "'-'";
        QTest::newRow("lone point") << "."
                                    << "'.'";
        QTest::newRow("NA") << "NA"
                            << "'NA'";
        QTest::newRow("long text is cut") << QString(100, 'z') << "'" + QString(32, 'z') + "...'";
    }
    void nonNumericCell()
    {
        QFETCH(QString, cell);
        QFETCH(QString, quoted);
        const std::string text = "t;x;y\n0;1;2\n1;" + cell.toStdString() + ";3\n";
        CHECK_CSV_ERROR(text, CsvOptions{}, 3, 2, "x", "found " + quoted.toStdString() + "; expected a number");
    }

    void controlBytesInCellsAreEscaped()
    {
        const auto err = parseError("t,x\n0,a\x01\xff\n");
        QVERIFY(err);
        QVERIFY2(contains(err->message, "'a\\x01\\xFF'"), err->what());
    }

    void emptyCell()
    {
        CHECK_CSV_ERROR("t,x,y\n0,1,2\n1,,3\n", CsvOptions{}, 3, 2, "x", "empty cell; expected a number");
        CHECK_CSV_ERROR("t,x,y\n0,1,2\n1,2,  \n", CsvOptions{}, 3, 3, "y", "empty cell");
        CHECK_CSV_ERROR("t,x\n,1\n", CsvOptions{}, 2, 1, "t", "empty cell");
        CHECK_CSV_ERROR("t,x\n0,\"\"\n", CsvOptions{}, 2, 2, "x", "empty cell");
    }

    void nanAndInfRejected_data()
    {
        QTest::addColumn<QString>("cell");
        for (const char* s : {"nan", "NaN", "-nan", "inf", "-Inf", "+INF", "infinity", "Infinity", "nan(123)"})
            QTest::newRow(s) << s;
    }
    void nanAndInfRejected()
    {
        QFETCH(QString, cell);
        const std::string c = cell.toStdString();
        CHECK_CSV_ERROR("t,x\n0," + c + "\n", CsvOptions{}, 2, 2, "x", "found '" + c + "'; expected a finite number");
        CHECK_CSV_ERROR("t,x\n0,1\n" + c + ",1\n", CsvOptions{}, 3, 1, "t", "expected a finite number");
    }

    void numberTooLarge()
    {
        CHECK_CSV_ERROR("t,x\n0,1e400\n", CsvOptions{}, 2, 2, "x", "'1e400' is too large");
        CHECK_CSV_ERROR("t,x\n0,-123456789e305\n", CsvOptions{}, 2, 2, "x", "is too large");
        CHECK_CSV_ERROR("t,x\n0,0.0001e313\n", CsvOptions{}, 2, 2, "x", "is too large");
        CHECK_CSV_ERROR("t,x\n0,1e999999999999999999999\n", CsvOptions{}, 2, 2, "x", "is too large");
        // Tiny numbers with huge mantissas are not "too large".
        const DataTable t = parseCsv("t,x\n0,100000e-400\n1,0.000001e-320\n", kSource);
        QVERIFY(t.columns[1][0] == 0 && t.columns[1][1] == 0);
    }

    void raggedRows()
    {
        CHECK_CSV_ERROR("t,x,y\n0,1,2\n1,2\n", CsvOptions{}, 3, 0, "",
                        "expected 3 fields as in the header (line 1), found 2");
        CHECK_CSV_ERROR("#c\nt;x\n0;1\n1;2;3\n", CsvOptions{}, 4, 0, "",
                        "expected 2 fields as in the header (line 2), found 3");
        CHECK_CSV_ERROR("t,x\n0,1,\n", CsvOptions{}, 2, 0, "", "found 3");
        // A comma row in a semicolon file is one field.
        CHECK_CSV_ERROR("t;x\n0,1\n", CsvOptions{}, 2, 0, "", "found 1 (separator ';')");
    }

    void timeMustIncrease()
    {
        CHECK_CSV_ERROR("t,x\n0,1\n0.5,1\n\n0.5,2\n", CsvOptions{}, 5, 1, "t",
                        "the time 0.5 repeats the time on line 3; expected strictly increasing time");
        CHECK_CSV_ERROR("t,x\n0,1\n0.5,1\n# c\n0.25,2\n", CsvOptions{}, 5, 1, "t",
                        "the time decreases from 0.5 (line 3) to 0.25; expected strictly increasing time");
        // The time column need not be the first, and the others may do anything.
        CHECK_CSV_ERROR("x;time\n5;1\n5;2\n4;-1\n", CsvOptions{}, 4, 2, "time", "decreases from 2 (line 3) to -1");
        const DataTable t = parseCsv("x;time\n5;1\n5;2\n4;3\n", kSource);
        QVERIFY(t.time() == (std::vector<double>{1, 2, 3}));
        // -0 equals 0: a duplicate.
        CHECK_CSV_ERROR("t,x\n0,1\n-0,1\n", CsvOptions{}, 3, 1, "t", "repeats");
    }

    void noDataRows()
    {
        CHECK_CSV_ERROR("t,x\n", CsvOptions{}, 1, 0, "", "no data rows after the header (line 1)");
        CHECK_CSV_ERROR("# a\nt,x\n# b\n\n", CsvOptions{}, 2, 0, "", "no data rows after the header (line 2)");
        CHECK_CSV_ERROR("", CsvOptions{}, 0, 0, "", "no header line");
        CHECK_CSV_ERROR("# only a comment\n\n  \n", CsvOptions{}, 0, 0, "", "no header line");
        CHECK_CSV_ERROR("\xEF\xBB\xBF", CsvOptions{}, 0, 0, "", "no header line");
    }

    void notATextFile()
    {
        CHECK_CSV_ERROR("t,x\n0,1\n1,\0\n"s, CsvOptions{}, 3, 0, "", "is not a text file: it contains a NUL byte");
        CHECK_CSV_ERROR("t,x\r\n0,1\r\n\r\n\0"s, CsvOptions{}, 4, 0, "", "NUL byte");
        // UTF-16 (little endian, with byte order mark) has NULs on line 1.
        CHECK_CSV_ERROR("\xFF\xFEt\0,\0x\0\n\0"s, CsvOptions{}, 1, 0, "", "is not a text file");
        // Invalid UTF-8 in the header: Latin-1, a lone continuation byte, an overlong form, a surrogate.
        for (const std::string h : {"t,temp \xB0"
                                    "C",
                                    "t,\x80x", "t,\xC0\xAF", "t,\xED\xA0\x80", "\xFF\xFE\xFF,x"})
            CHECK_CSV_ERROR("# ok\n" + h + "\n0,1\n", CsvOptions{}, 2, 0, "",
                            "is not a text file: the header line is not valid UTF-8");
        CHECK_CSV_ERROR("t,\x01x\n0,1\n", CsvOptions{}, 1, 0, "", "is not a text file");
        // Valid UTF-8 names are fine, and so is invalid UTF-8 in a comment.
        const DataTable t = parseCsv("# \xB0\xFF\nt,temperatur \xC2\xB0"
                                     "C,\xCE\xB8\n0,1,2\n",
                                     kSource);
        QCOMPARE(t.columnNames[1],
                 "temperatur \xC2\xB0"
                 "C"s);
        QCOMPARE(t.columnNames[2], "\xCE\xB8"s);
    }

    void readsFiles()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string path = dir.filePath("in.csv").toStdString();
        {
            std::ofstream out(path, std::ios::binary);
            out << "# header\nt;u\n0;1\n0.5;-1\n";
        }
        const DataTable t = readCsv(path);
        QCOMPARE(t.source, path);
        QVERIFY(t.column("u") == (std::vector<double>{1, -1}));

        {
            std::ofstream out(path, std::ios::binary);
            out << "t;u\n0;1\n0.5;x\n";
        }
        try {
            readCsv(path);
            QFAIL("expected a DataError");
        } catch (const DataError& e) {
            QCOMPARE(e.source, path);
            QCOMPARE(e.line, 3);
            QCOMPARE(std::string(e.what()), path + ":3: column 'u': " + e.message);
        }
    }

    void fileErrors()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string missing = dir.filePath("missing.csv").toStdString();
        try {
            readCsv(missing);
            QFAIL("expected a DataError");
        } catch (const DataError& e) {
            QCOMPARE(e.source, missing);
            QCOMPARE(e.line, 0);
            QVERIFY2(contains(e.message, "file not found"), e.what());
            QCOMPARE(std::string(e.what()), missing + ": " + e.message);
        }
        try {
            readCsv(dir.path().toStdString());
            QFAIL("expected a DataError");
        } catch (const DataError& e) {
            QVERIFY2(contains(e.message, "is a folder, not a CSV file"), e.what());
        }
        try {
            readCsv("");
            QFAIL("expected a DataError");
        } catch (const DataError& e) {
            QVERIFY2(contains(e.message, "no file name"), e.what());
        }
        try {
            readCsv(dir.filePath("not-a-dir.csv").toStdString() + "/x.csv");
            QFAIL("expected a DataError");
        } catch (const DataError& e) {
            QVERIFY2(contains(e.message, "not found") || contains(e.message, "cannot"), e.what());
        }
        // An unreadable file (root reads everything, so only checked otherwise).
        const std::string locked = dir.filePath("locked.csv").toStdString();
        {
            std::ofstream out(locked);
            out << "t\n0\n";
        }
        QCOMPARE(::chmod(locked.c_str(), 0), 0);
        if (::access(locked.c_str(), R_OK) != 0) {
            try {
                readCsv(locked);
                QFAIL("expected a DataError");
            } catch (const DataError& e) {
                QVERIFY2(contains(e.message, "cannot be opened"), e.what());
                QCOMPARE(e.source, locked);
            }
        }
        ::chmod(locked.c_str(), 0600);
        // A read error after a successful open (root can open anything, so use
        // a file whose reading fails: /proc/self/mem at offset 0 is unmapped).
        if (std::filesystem::exists("/proc/self/mem")) {
            try {
                readCsv("/proc/self/mem");
                QFAIL("expected a DataError");
            } catch (const DataError& e) {
                QVERIFY2(contains(e.message, "cannot be read"), e.what());
                QCOMPARE(e.source, "/proc/self/mem"s);
            }
        }
        // An empty file and a binary file.
        const std::string empty = dir.filePath("empty.csv").toStdString();
        {
            std::ofstream out(empty);
        }
        try {
            readCsv(empty);
            QFAIL("expected a DataError");
        } catch (const DataError& e) {
            QVERIFY2(contains(e.message, "no header line"), e.what());
        }
        const std::string binary = dir.filePath("binary.csv").toStdString();
        {
            std::ofstream out(binary, std::ios::binary);
            const char bytes[] = {'\x7f', 'E', 'L', 'F', '\x02', '\x01', '\x01', '\0', '\0'};
            out.write(bytes, sizeof bytes);
        }
        try {
            readCsv(binary);
            QFAIL("expected a DataError");
        } catch (const DataError& e) {
            QVERIFY2(contains(std::string(e.what()), binary + ":1: is not a text file"), e.what());
        }
    }

    void dataTableLookup()
    {
        const DataTable t = parseCsv("x,time,y\n1,0,2\n", "d.csv");
        QCOMPARE(t.findColumn("y"), std::optional<std::size_t>(2));
        QCOMPARE(t.findColumn("Y"), std::optional<std::size_t>());
        QVERIFY(&t.column("x") == &t.columns[0]);
        QVERIFY(&t.time() == &t.columns[1]);
        try {
            t.column("z");
            QFAIL("expected a DataError");
        } catch (const DataError& e) {
            QCOMPARE(e.columnName, "z"s);
            QCOMPARE(e.source, "d.csv"s);
            QVERIFY2(contains(e.message, "'x', 'time', 'y'"), e.what());
            QCOMPARE(std::string(e.what()), "d.csv: column 'z': " + e.message);
        }
        DataTable empty;
        QCOMPARE(empty.rowCount(), std::size_t(0));
        QVERIFY_THROWS_EXCEPTION(DataError, empty.time());
        QVERIFY_THROWS_EXCEPTION(DataError, empty.column("t"));
    }

    void errorFormat()
    {
        QCOMPARE(std::string(DataError("m", "f", 3, 2, "x").what()), "f:3: column 'x': m"s);
        QCOMPARE(std::string(DataError("m", "f", 3, 2).what()), "f:3: column 2: m"s);
        QCOMPARE(std::string(DataError("m", "f", 3).what()), "f:3: m"s);
        QCOMPARE(std::string(DataError("m", "f").what()), "f: m"s);
        QCOMPARE(std::string(DataError("m", "", 4).what()), "line 4: m"s);
        QCOMPARE(std::string(DataError("m").what()), "m"s);
        const DataError e("msg", "src", 7, 8, "nm");
        QCOMPARE(e.message, "msg"s);
        QCOMPARE(e.source, "src"s);
        QCOMPARE(e.line, 7);
        QCOMPARE(e.column, 8);
        QCOMPARE(e.columnName, "nm"s);
    }

    // Random bytes, random CSV-like text, every truncation and byte flips of a
    // valid file: the reader either returns a consistent table or throws
    // DataError, and nothing else.
    void fuzzOnlyDataError()
    {
        std::mt19937_64 rng(20240611);
        int accepted = 0, rejected = 0;
        auto feed = [&](const std::string& text, const CsvOptions& options) -> bool {
            try {
                const DataTable t = parseCsv(text, "fuzz.csv", options);
                ++accepted;
                if (t.columns.size() != t.columnNames.size() || t.columns.empty() || t.rowCount() == 0 ||
                    t.timeColumn >= t.columns.size())
                    return false;
                for (const auto& c : t.columns) {
                    if (c.size() != t.rowCount())
                        return false;
                    for (double v : c)
                        if (!std::isfinite(v))
                            return false;
                }
                for (std::size_t r = 1; r < t.rowCount(); ++r)
                    if (!(t.time()[r] > t.time()[r - 1]))
                        return false;
                for (const auto& n : t.columnNames)
                    if (n.empty())
                        return false;
                return true;
            } catch (const DataError& e) {
                ++rejected;
                return e.what()[0] != '\0' && !e.message.empty() && e.line >= 0 && e.column >= 0;
            } catch (...) {
                return false;
            }
        };
        auto options = [&](std::uint64_t k) {
            CsvOptions o;
            switch (k % 5) {
            case 1: o.decimalPoint = ','; break;
            case 2: o.separator = ';'; break;
            case 3: o.timeColumn = "x"; break;
            case 4:
                o.separator = '\t';
                o.decimalPoint = ',';
                break;
            default: break;
            }
            return o;
        };
        auto describe = [](const std::string& s) {
            std::string out;
            for (unsigned char c : s) {
                char buf[8];
                std::snprintf(buf, sizeof buf, "%02x ", c);
                out += buf;
            }
            return out;
        };

        const std::string alphabet = "0123456789012345.,;\t\n\r# \"eE+-tximnaf\xEF\xBB\xBF\xFF\x80";
        for (int i = 0; i < 2000; ++i) {
            const std::size_t len = rng() % 200;
            std::string s(len, '\0');
            const bool rawBytes = i % 2 == 0;
            for (char& c : s)
                c = rawBytes ? static_cast<char>(rng() & 0xFF) : alphabet[rng() % alphabet.size()];
            if (i % 4 == 1)
                s = "t,x\n" + s;  // get past the header more often
            if (i % 4 == 3)
                s = "t;x\n0;1\n" + s;
            QVERIFY2(feed(s, options(rng())), describe(s).c_str());
        }

        const std::string valid = "\xEF\xBB\xBF# test file\r\n\"t\" ; x # comment\r\n0;1.5\r\n\r\n0.5 ; -2e-3\r\n"
                                  "# c\n1;\"3\"\r1.5;+4\n";
        QVERIFY(feed(valid, {}));
        for (std::size_t n = 0; n <= valid.size(); ++n)
            QVERIFY2(feed(valid.substr(0, n), {}), describe(valid.substr(0, n)).c_str());
        for (int i = 0; i < 3000; ++i) {
            std::string s = valid;
            const int flips = 1 + static_cast<int>(rng() % 3);
            for (int f = 0; f < flips; ++f) {
                const std::size_t at = rng() % s.size();
                if (rng() % 2)
                    s[at] = static_cast<char>(s[at] ^ (1 << (rng() % 8)));
                else
                    s[at] = static_cast<char>(rng() & 0xFF);
            }
            QVERIFY2(feed(s, options(rng())), describe(s).c_str());
        }
        qInfo("fuzz: %d accepted, %d rejected", accepted, rejected);
        // Both outcomes must have happened, or the test exercised nothing.
        QVERIFY(accepted > 100);
        QVERIFY(rejected > 1000);
    }

    void writerRoundTripIsExact()
    {
        std::mt19937_64 rng(7);
        const std::size_t n = 2000;
        std::vector<double> t(n), a(n), b(n);
        double time = -1e-3;
        for (std::size_t i = 0; i < n; ++i) {
            time = std::nextafter(time, 1.0) + static_cast<double>(rng() % 1000) * 1e-7;
            t[i] = time;
            double v;
            do
                v = std::bit_cast<double>(rng());  // every exponent, subnormals too
            while (!std::isfinite(v));
            a[i] = v;
            b[i] = std::ldexp(static_cast<double>(rng() >> 11), -53) * 10.0 - 5.0;
        }
        const std::vector<double> special = {0.0,
                                             -0.0,
                                             0.1,
                                             1.0 / 3.0,
                                             std::numeric_limits<double>::max(),
                                             -std::numeric_limits<double>::max(),
                                             std::numeric_limits<double>::min(),
                                             std::numeric_limits<double>::denorm_min(),
                                             -5e-324,
                                             1e22,
                                             123456789012345678.0};
        std::copy(special.begin(), special.end(), a.begin());

        const std::vector<std::string> header = {"t", "a, \"quoted\" #1", "2"};
        std::ostringstream out;
        writeCsv(out, header, {t, a, b});
        const DataTable r = parseCsv(out.str(), "rt.csv");
        QCOMPARE(r.columnNames, header);
        QCOMPARE(r.rowCount(), n);
        const std::vector<double>* original[] = {&t, &a, &b};
        for (std::size_t c = 0; c < 3; ++c)
            for (std::size_t i = 0; i < n; ++i)
                QVERIFY2(std::bit_cast<std::uint64_t>(r.columns[c][i]) ==
                             std::bit_cast<std::uint64_t>((*original[c])[i]),
                         (std::to_string(c) + "/" + std::to_string(i)).c_str());
        // Names that look like numbers are quoted, so they still read as a header.
        std::ostringstream numeric;
        writeCsv(numeric, {"0", "1.5"}, {{0, 1}, {2, 3}});
        QCOMPARE(parseCsv(numeric.str(), "n.csv").columnNames, (std::vector<std::string>{"0", "1.5"}));
        // Shortest form: 0.1 is written as 0.1, not 0.10000000000000001.
        QVERIFY2(contains(out.str(), "\n0,0.1,") || contains(out.str(), ",0.1,"), out.str().substr(0, 300).c_str());
    }

    void writerRejectsWhatReaderWouldRefuse()
    {
        std::ostringstream out;
        const double nan = std::numeric_limits<double>::quiet_NaN();
        const double inf = std::numeric_limits<double>::infinity();
        auto expect = [&](const std::vector<std::string>& h, const std::vector<std::vector<double>>& c,
                          std::string_view fragment, int column) {
            std::ostringstream o;
            try {
                writeCsv(o, h, c);
            } catch (const DataError& e) {
                return contains(e.message, fragment) && e.column == column && o.str().empty();
            }
            return false;
        };
        QVERIFY(expect({"t", "x"}, {{0, 1}, {1, nan}}, "row 2 holds nan; expected finite", 2));
        QVERIFY(expect({"t", "x"}, {{0, 1}, {inf, 1}}, "row 1 holds inf", 2));
        QVERIFY(expect({"t", "x"}, {{0, 1}, {1}}, "expected columns of equal length", 2));
        QVERIFY(expect({"t"}, {{0, 1}, {1, 2}}, "one name per column", 0));
        QVERIFY(expect({"t", "t"}, {{0}, {1}}, "duplicate column name", 2));
        QVERIFY(expect({"t", ""}, {{0}, {1}}, "empty name", 2));
        QVERIFY(expect({"t", " x"}, {{0}, {1}}, "surrounding blanks", 2));
        QVERIFY(expect({"t", "x\ny"}, {{0}, {1}}, "line break", 2));
        QVERIFY(expect({}, {}, "no columns", 0));
        // A good table is written.
        writeCsv(out, {"t", "x"}, {{0, 0.5}, {-1, 2.25}});
        QCOMPARE(out.str(), "t,x\n0,-1\n0.5,2.25\n"s);
    }

    void writeCsvFileIsAtomic()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string path = dir.filePath("out.csv").toStdString();
        writeCsvFile(path, {"t", "y"}, {{0, 1}, {2, 3}});
        QCOMPARE(slurp(path), "t,y\n0,2\n1,3\n"s);
        QVERIFY(!std::filesystem::exists(path + ".tmp"));
        // Overwriting replaces the whole file.
        writeCsvFile(path, {"t"}, {{5}});
        QCOMPARE(slurp(path), "t\n5\n"s);
        QVERIFY(!std::filesystem::exists(path + ".tmp"));
        // A failed write leaves the old file as it was.
        QVERIFY_THROWS_EXCEPTION(DataError, writeCsvFile(path, {"t"}, {{std::nan("")}}));
        QCOMPARE(slurp(path), "t\n5\n"s);
        // A folder that does not exist.
        const std::string bad = dir.filePath("no/such/dir/out.csv").toStdString();
        try {
            writeCsvFile(bad, {"t"}, {{0}});
            QFAIL("expected a DataError");
        } catch (const DataError& e) {
            QCOMPARE(e.source, bad);
            QVERIFY2(contains(e.message, "does not exist"), e.what());
        }
        // The target is a directory: refused, and nothing is left behind.
        const std::string folder = dir.filePath("folder").toStdString();
        std::filesystem::create_directory(folder);
        std::filesystem::create_directory(folder + "/inside");
        try {
            writeCsvFile(folder, {"t"}, {{0}});
            QFAIL("expected a DataError");
        } catch (const DataError& e) {
            QCOMPARE(e.source, folder);
            QVERIFY2(contains(e.message, "is a folder"), e.what());
        }
        QVERIFY(!std::filesystem::exists(folder + ".tmp"));
        // What was written reads back.
        writeCsvFile(path, {"t", "x"}, {{0, 0.1, 0.2}, {1.0 / 3, -2.0 / 3, 1e-300}});
        const DataTable r = readCsv(path);
        QVERIFY(r.column("x") == (std::vector<double>{1.0 / 3, -2.0 / 3, 1e-300}));
    }

    // The layout shows a text as parseCsv reads it: the same lines, header and separator.
    void layoutForAPreview()
    {
        const std::string text = "\xEF\xBB\xBF# made by hand\r\n\r\ntime ; \"x;1\" ; y # units: s, m\r\n"
                                 "0;1,5;2\n  \t\n# a pause\n1;\"2\";3\r4;5;6";
        const CsvLayout layout = csvLayout(text);
        QCOMPARE(layout.lines,
                 (std::vector<std::string>{"# made by hand", "", "time ; \"x;1\" ; y # units: s, m", "0;1,5;2", "  \t",
                                           "# a pause", "1;\"2\";3", "4;5;6"}));
        QCOMPARE(layout.headerLine, 3);
        QCOMPARE(layout.dataLines, (std::vector<int>{4, 7, 8}));
        QCOMPARE(layout.separator, ';');
        QCOMPARE(previewFields(layout.lines[2], layout.separator), (std::vector<std::string>{"time", "x;1", "y"}));
        QCOMPARE(previewFields(layout.lines[6], layout.separator), (std::vector<std::string>{"1", "2", "3"}));
        QCOMPARE(previewFields("a,\"say \"\"hi\"\"\", b ", ','), (std::vector<std::string>{"a", "say \"hi\"", "b"}));
        // The parser reads the same header and rows.
        CsvOptions decimalComma;
        decimalComma.decimalPoint = ',';
        const DataTable table = parseCsv(text, "t.csv", decimalComma);
        QCOMPARE(table.columnNames, (std::vector<std::string>{"time", "x;1", "y"}));
        QCOMPARE(table.rowCount(), layout.dataLines.size());
        QCOMPARE(table.column("x;1")[0], 1.5);
    }

    void layoutNeverFails()
    {
        QCOMPARE(csvLayout("").headerLine, 0);
        QCOMPARE(csvLayout("# only a comment\n\n").headerLine, 0);
        QCOMPARE(csvLayout("").separator, ',');
        CsvOptions tab;
        tab.separator = '\t';
        QCOMPARE(csvLayout("a,b\n", tab).separator, '\t');
        // A line the parser refuses is still split for showing.
        QCOMPARE(previewFields("1,\"unclosed,2", ','), (std::vector<std::string>{"1", "unclosed,2"}));
        QCOMPARE(previewFields("", ','), (std::vector<std::string>{""}));
        const std::string binary("t,x\n\0\x01\xff,2\n", 10);
        QCOMPARE(csvLayout(binary).lines.size(), std::size_t(2));
    }

    // A row of units under the header is skipped when asked, proposed by the detection, and shown in the layout.
    void unitsRowSkipped()
    {
        const std::string text = "t,u,y\ns,N,m\n0,1,2\n0.5,3,4\n";
        CHECK_CSV_ERROR(text, CsvOptions{}, 2, 1, "t", "found 's'");
        CsvOptions skip;
        skip.skipRows = 1;
        const DataTable table = parseCsv(text, kSource, skip);
        QCOMPARE(table.columnNames, (std::vector<std::string>{"t", "u", "y"}));
        QCOMPARE(table.column("t"), (std::vector<double>{0, 0.5}));
        QCOMPARE(table.column("y"), (std::vector<double>{2, 4}));
        const CsvLayout layout = csvLayout(text, skip);
        QCOMPARE(layout.headerLine, 1);
        QCOMPARE(layout.skippedLines, (std::vector<int>{2}));
        QCOMPARE(layout.dataLines, (std::vector<int>{3, 4}));
        const CsvFormat detected = detectCsvFormat(text);
        QCOMPARE(detected.skipRows, 1);
        QCOMPARE(detected.headerLine, 0);
        QCOMPARE(detected.separator, ',');
        QCOMPARE(detected.decimalPoint, '.');
        // Comments and blank lines between are not counted as skipped rows; two units rows are proposed as two.
        const std::string two = "t;x\n# units follow\n[s];[m]\n\n(time);(position)\n0;1\n";
        QCOMPARE(detectCsvFormat(two).skipRows, 2);
        skip.skipRows = 2;
        QCOMPARE(parseCsv(two, kSource, skip).column("x"), (std::vector<double>{1}));
        // A row with a number in it is data, never proposed as skipped.
        QCOMPARE(detectCsvFormat("t,x\n0,abc\n1,2\n").skipRows, 0);
        // Skipping every row leaves no data, and says so.
        skip.skipRows = 5;
        CHECK_CSV_ERROR(text, skip, 1, 0, "", "and the 5 skipped rows");
    }

    // Lines before the header (a title, a date) are passed over when the header line is given.
    void leadingLinesBeforeTheHeader()
    {
        const std::string text = "Test bench 3\nrecorded 2024-05-01, 14:00\n\nt,u,y\n0,1,2\n1,3,4\n";
        CsvOptions options;
        options.headerLine = 4;
        const DataTable table = parseCsv(text, kSource, options);
        QCOMPARE(table.columnNames, (std::vector<std::string>{"t", "u", "y"}));
        QCOMPARE(table.column("u"), (std::vector<double>{1, 3}));
        const CsvLayout layout = csvLayout(text, options);
        QCOMPARE(layout.headerLine, 4);
        QCOMPARE(layout.dataLines, (std::vector<int>{5, 6}));
        QCOMPARE(detectCsvFormat(text).headerLine, 4);
        // With units too; the error's line counts every physical line.
        const std::string both = "Test bench 3\nt;u;y\ns;N;m\n0;1;2\n1;x;4\n";
        CsvOptions skip;
        skip.headerLine = 2;
        skip.skipRows = 1;
        CHECK_CSV_ERROR(both, skip, 5, 2, "u", "found 'x'");
        const CsvFormat detected = detectCsvFormat(both);
        QCOMPARE(detected.headerLine, 2);
        QCOMPARE(detected.skipRows, 1);
        // A header line that is blank, or beyond the end, is named.
        options.headerLine = 3;
        CHECK_CSV_ERROR(text, options, 3, 0, "", "the header line is blank");
        options.headerLine = 40;
        CHECK_CSV_ERROR(text, options, 0, 0, "", "expected the header on line 40");
    }

    // A decimal comma is proposed for ';'- and tab-separated files with numbers like 1,25.
    void decimalCommaDetected()
    {
        const std::string semicolon = "t;u;y\n0;1,25;-2,5e-1\n0,5;3;4\n";
        CsvFormat f = detectCsvFormat(semicolon);
        QCOMPARE(f.separator, ';');
        QCOMPARE(f.decimalPoint, ',');
        CsvOptions options;
        static_cast<CsvFormat&>(options) = f;
        DataTable table = parseCsv(semicolon, kSource, options);
        QCOMPARE(table.column("u"), (std::vector<double>{1.25, 3}));
        QCOMPARE(table.column("y"), (std::vector<double>{-0.25, 4}));

        const std::string tab = "time\tforce\n0\t1,5\n1\t2,75\n";
        f = detectCsvFormat(tab);
        QCOMPARE(f.separator, '\t');
        QCOMPARE(f.decimalPoint, ',');
        static_cast<CsvFormat&>(options) = f;
        table = parseCsv(tab, kSource, options);
        QCOMPARE(table.column("force"), (std::vector<double>{1.5, 2.75}));

        // With units and a title, all together.
        const std::string all = "Messung\nt;F\ns;N\n0;1,5\n1;2\n";
        f = detectCsvFormat(all);
        QCOMPARE(f.headerLine, 2);
        QCOMPARE(f.skipRows, 1);
        QCOMPARE(f.separator, ';');
        QCOMPARE(f.decimalPoint, ',');

        // A point anywhere keeps the point; a comma-separated file never gets a decimal comma.
        QCOMPARE(detectCsvFormat("t;x\n0;1,5\n1;2.5\n").decimalPoint, '.');
        QCOMPARE(detectCsvFormat("t;x\n0;1\n1;2\n").decimalPoint, '.');
        QCOMPARE(detectCsvFormat("t,x\n0,1\n1,2\n").decimalPoint, '.');
        QCOMPARE(detectCsvFormat("t,x\n0,1\n1,2\n").separator, ',');
        // Detection never throws.
        QCOMPARE(detectCsvFormat("").separator, char(0));
        QCOMPARE(detectCsvFormat(std::string("t,x\n\0\x01\xff,2\n", 10)).skipRows, 0);
    }

    void pathologicalInputsAreQuick()
    {
        // Each of these is about a megabyte; anything worse than linear would hang.
        QElapsedTimer timer;
        timer.start();
        std::string header = "t", row = "0";
        for (int c = 1; c < 100000; ++c) {
            header += ",c";
            header += std::to_string(c);
            row += ",1";
        }
        QCOMPARE(parseCsv(header + "\n" + row + "\n", kSource).columns.size(), std::size_t(100000));
        CHECK_CSV_ERROR(header + ",c5\n", CsvOptions{}, 1, 100001, "c5", "duplicate column name (also column 6)");
        // One quoted name made of escaped quotes, then nothing.
        CHECK_CSV_ERROR(std::string(1 << 20, '"'), CsvOptions{}, 1, 0, "", "no data rows");
        CHECK_CSV_ERROR(std::string(1 << 20, '\n'), CsvOptions{}, 0, 0, "", "no header line");
        CHECK_CSV_ERROR("t,x\n" + std::string(1 << 20, ','), CsvOptions{}, 2, 0, "", "found 1048577");
        CHECK_CSV_ERROR("t,x\n0," + std::string(1 << 20, '7'), CsvOptions{}, 2, 2, "x", "is too large");
        CHECK_CSV_ERROR("t,x\n0," + std::string(1 << 20, 'q'), CsvOptions{}, 2, 2, "x", "...'");
        const qint64 ms = timer.elapsed();
        QVERIFY2(ms < 10000, qPrintable(QString("took %1 ms").arg(ms)));
    }

    void largeFileIsQuick()
    {
        // 200 000 rows x 4 columns; a quadratic reader would not finish.
        std::ostringstream out;
        const std::size_t n = 200000;
        std::vector<double> t(n), x(n), y(n), z(n);
        for (std::size_t i = 0; i < n; ++i) {
            t[i] = 0.001 * static_cast<double>(i);
            x[i] = std::sin(t[i]);
            y[i] = std::cos(t[i]);
            z[i] = t[i] * t[i];
        }
        writeCsv(out, {"t", "x", "y", "z"}, {t, x, y, z});
        QElapsedTimer timer;
        timer.start();
        const DataTable r = parseCsv(out.str(), "big.csv");
        const qint64 ms = timer.elapsed();
        QCOMPARE(r.rowCount(), n);
        QVERIFY(r.column("z") == z);
        QVERIFY2(ms < 10000, qPrintable(QString("took %1 ms").arg(ms)));
    }
};

QTEST_APPLESS_MAIN(TestDataCsv)
#include "test_data_csv.moc"
