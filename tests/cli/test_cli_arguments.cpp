// The command line's parse of plain arguments (app/cli/PlainArguments.h) against program_options'
// own parser and store on the same options: the same variables, values and defaults for every plain
// argument list, and nothing (program_options then parses and reports) for every other form.
#include "app/cli/PlainArguments.h"

#include <QtTest>

#include <boost/program_options.hpp>

#include <string>
#include <vector>

namespace po = boost::program_options;
using Strings = std::vector<std::string>;

namespace {

struct Options {
    po::options_description visible;
    po::options_description hidden;
    Options()
    {
        visible.add_options()("help,h", "help")("model", po::value<std::string>(), "model")(
            "set", po::value<Strings>()->composing(), "NAME=VALUE")("quiet,q", "quiet")(
            "output,o", po::value<std::string>(), "output")("period", po::value<std::string>(), "period")(
            "periods", po::value<std::string>(), "periods")("step", po::value<double>(), "step")(
            "max-points", po::value<long long>(), "points")("t-start", po::value<double>()->default_value(0.5), "t0")(
            "seed", po::value<unsigned long long>()->default_value(7), "seed");
        hidden.add_options()("natural", "older spelling");
    }
};

po::variables_map byProgramOptions(const Strings& args, const Options& o)
{
    po::options_description all;
    all.add(o.visible).add(o.hidden);
    po::positional_options_description positions;
    positions.add("model", 1);
    po::variables_map vm;
    po::store(po::command_line_parser(args).options(all).positional(positions).run(), vm);
    return vm;
}

bool sameValue(const boost::any& a, const boost::any& b)
{
    if (a.type() != b.type())
        return false;
    if (a.empty())
        return true;
    if (const auto* x = boost::any_cast<std::string>(&a))
        return *x == boost::any_cast<std::string>(b);
    if (const auto* x = boost::any_cast<Strings>(&a))
        return *x == boost::any_cast<Strings>(b);
    if (const auto* x = boost::any_cast<double>(&a))
        return *x == boost::any_cast<double>(b);
    if (const auto* x = boost::any_cast<long long>(&a))
        return *x == boost::any_cast<long long>(b);
    if (const auto* x = boost::any_cast<unsigned long long>(&a))
        return *x == boost::any_cast<unsigned long long>(b);
    return false;
}

QString joined(const Strings& args)
{
    QStringList out;
    for (const auto& a : args)
        out << QString::fromStdString(a);
    return out.join(' ');
}

}  // namespace

class TestCliArguments : public QObject {
    Q_OBJECT
private slots:
    void plainArgumentsGiveWhatProgramOptionsGives()
    {
        const Options o;
        const std::vector<Strings> cases = {
            {},
            {"m.model"},
            {"m.model", "--period", "6.28", "-o", "-", "-q"},
            {"--period=6.28", "m.model", "--output", "out.json"},
            {"m.model", "--set", "c=0.1", "--set", "k=1", "--set=k3=0.5", "--periods", "2"},
            {"m.model", "--step", "0.25", "--max-points", "40", "--t-start", "1.5", "--seed", "3"},
            {"m.model", "--natural", "-h"},
            {"-o", "-", "m.model"},
        };
        for (const auto& args : cases) {
            const auto plain = sysid::cli::parsePlainArguments(args, {&o.visible, &o.hidden}, "model", 1);
            QVERIFY2(plain, qPrintable("not taken as plain: " + joined(args)));
            const po::variables_map expected = byProgramOptions(args, o);
            QVERIFY2(plain->size() == expected.size(), qPrintable(joined(args)));
            for (const auto& [key, value] : expected) {
                QVERIFY2(plain->count(key), qPrintable(QString::fromStdString(key) + " missing: " + joined(args)));
                const po::variable_value& mine = plain->find(key)->second;
                QVERIFY2(mine.defaulted() == value.defaulted(), qPrintable(QString::fromStdString(key)));
                QVERIFY2(sameValue(mine.value(), value.value()),
                         qPrintable(QString::fromStdString(key) + " differs: " + joined(args)));
            }
        }
    }

    void everyOtherFormIsLeftToProgramOptions()
    {
        const Options o;
        const std::vector<Strings> cases = {
            {"m.model", "--per", "6.28"},  // an abbreviation
            {"m.model", "-qo", "-"},  // grouped short names
            {"m.model", "-oout.json"},  // a value stuck to its short name
            {"m.model", "--period="},  // an empty value after '='
            {"m.model", "--period", "-1"},  // a value that looks like an option
            {"m.model", "--period"},  // a value missing
            {"m.model", "--", "--period"},  // the end of the options
            {"m.model", "--foo", "1"},  // an unknown option
            {"m.model", "--period", "1", "--period", "2"},  // a repeat
            {"m.model", "-q", "-q"},  // a switch twice
            {"m.model", "--quiet=1"},  // a value given to a switch
            {"a.model", "b.model"},  // one positional argument too many
            {"m.model", "--step", "abc"},  // a value its option's validator refuses
        };
        for (const auto& args : cases)
            QVERIFY2(!sysid::cli::parsePlainArguments(args, {&o.visible, &o.hidden}, "model", 1),
                     qPrintable("taken as plain: " + joined(args)));
    }
};

QTEST_APPLESS_MAIN(TestCliArguments)
#include "test_cli_arguments.moc"
