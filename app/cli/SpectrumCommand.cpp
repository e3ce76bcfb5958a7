// sysid spectrum: the power spectra of a data file's columns, with each spectrum's peak as a
// starting natural frequency and a low-pass cutoff to start from (Normann 1989 places the cutoff
// from the spectrum and takes the peak as the first guess of the natural frequency).
#include "app/cli/CommandLine.h"
#include "app/cli/CommonOptions.h"
#include "app/cli/PreprocessingOptions.h"

#include "engine/data/Butterworth.h"
#include "engine/data/CsvReader.h"
#include "engine/data/CsvWriter.h"
#include "engine/data/CutoffSuggestion.h"
#include "engine/data/SpectralPeak.h"
#include "engine/data/Spectrum.h"
#include "engine/data/UniformTime.h"
#include "engine/data/ZeroPhaseFilter.h"

#include <boost/program_options.hpp>

#include <algorithm>
#include <iomanip>
#include <iostream>
#include <optional>
#include <sstream>
#include <stdexcept>

namespace po = boost::program_options;

namespace sysid::cli {

namespace {

std::string significant(double value, int digits = 4)
{
    std::ostringstream s;
    s << std::setprecision(digits) << value;
    return s.str();
}

}  // namespace

int runSpectrum(const Arguments& args)
{
    const NamedOptions named(args);
    po::options_description options(
        "sysid spectrum DATA.csv [--column NAME]... [--low-pass HZ[:ORDER]] [-o SPECTRUM.csv]\n"
        "Prints the peak of each column's power spectrum as a starting natural frequency (omega = 2 pi f and "
        "omega^2, the stiffness over the mass of an oscillator) and a low-pass cutoff to start from");
    // clang-format off
    NamedOptionsInit(options, named, "data")
        ("help,h", "show this help")
        ("data", po::value<std::string>(), "the CSV file")
        ("time", po::value<std::string>(), "name of the time column (default: t, time or the first)")
        ("column", po::value<std::vector<std::string>>()->composing(), "a column to analyse (repeatable; default: "
                                                                        "every column but time)")
        ("low-pass", po::value<std::string>(), "HZ[:ORDER]: also give the zero-phase Butterworth low-pass's gain "
                                               "|H|^2 at each peak (and in SPECTRUM.csv) and how long its end "
                                               "transients last")
        ("output,o", po::value<std::string>(), "SPECTRUM.csv: frequency and the power spectral density of each column "
                                               "(Welch, 256-sample segments, as the GUI's filter panel); - for "
                                               "standard output (the summary then goes to standard error)");
    // clang-format on
    addCsvFormatOptions(options, named);
    const auto parsed = parseArguments(args, options, "data");
    if (!parsed)
        return Success;
    const po::variables_map& vm = *parsed;
    if (!vm.count("data"))
        throw UsageError("give a data file: sysid spectrum DATA.csv");
    const std::string path = vm["data"].as<std::string>();
    std::optional<data::Preprocessing::LowPass> lowPass;
    if (vm.count("low-pass"))
        lowPass = parseLowPass(vm["low-pass"].as<std::string>(), "--low-pass");
    const std::string output = vm.count("output") ? vm["output"].as<std::string>() : std::string();
    if (!output.empty())
        checkOutputPlace(output);

    const data::DataTable table = data::readCsv(path, csvOptions(vm));
    const std::vector<double>& time = table.time();
    double rate = 0;
    try {
        rate = 1.0 / data::uniformTimeStep(time, "time");
    } catch (const std::invalid_argument& e) {
        throw UserError(path + ": " + e.what() + " (a spectrum needs uniform sampling)");
    }
    std::vector<std::size_t> columns;
    for (const std::string& name : repeated(vm, "column")) {
        const auto c = table.findColumn(name);
        if (!c || *c == table.timeColumn)
            throw UserError(path + ": no data column '" + name + "'");
        columns.push_back(*c);
    }
    if (columns.empty())
        for (std::size_t c = 0; c < table.columns.size(); ++c)
            if (c != table.timeColumn)
                columns.push_back(c);
    if (columns.empty())
        throw UserError(path + ": no data columns besides the time");

    std::vector<data::SecondOrderSection> sections;
    if (lowPass) {
        try {
            sections = data::butterworthLowPass(lowPass->order, lowPass->cutoffHz, rate);
        } catch (const std::invalid_argument& e) {
            throw UsageError(std::string("--low-pass: ") + e.what());
        }
    }

    std::ostream& summary = output == "-" ? std::cerr : std::cout;
    summary << path << ": " << time.size() << " samples at " << significant(rate) << " Hz (Nyquist "
            << significant(rate / 2) << " Hz)\n";
    summary << std::left << std::setw(16) << "column" << std::setw(12) << "peak [Hz]" << std::setw(16)
            << "omega [rad/s]" << std::setw(18) << "omega^2 [1/s^2]" << (lowPass ? "|H|^2 at the peak" : "") << '\n';
    for (const std::size_t c : columns) {
        const std::string& name = table.columnNames[c];
        const auto peak = data::spectralPeak(table.columns[c], rate);
        summary << std::setw(16) << name;
        if (!peak) {
            summary << "no peak (constant, or too few samples)\n";
            continue;
        }
        summary << std::setw(12) << significant(peak->frequencyHz) << std::setw(16)
                << significant(peak->angularFrequency()) << std::setw(18)
                << significant(peak->angularFrequencySquared());
        if (lowPass)
            summary << significant(data::zeroPhaseGain(sections, {peak->frequencyHz}, rate).front(), 3);
        summary << '\n';
    }
    if (const auto cutoff = data::suggestedLowPassCutoff(table))
        summary << "a low-pass cutoff to start from: " << significant(*cutoff) << " Hz ("
                << significant(data::kCutoffPerDominant) << " x the highest peak, so that the harmonics of a "
                << "nonlinear response pass; at most " << significant(100 * data::kCutoffOfNyquist)
                << " % of the Nyquist frequency)\n";
    if (lowPass)
        summary << "low-pass: " << data::describeLowPass(*lowPass, rate) << '\n';

    if (!output.empty()) {
        std::vector<std::string> header{"f_hz"};
        std::vector<std::vector<double>> values;
        for (const std::size_t c : columns) {
            const data::Spectrum s = data::welch(table.columns[c], rate);
            if (values.empty())
                values.push_back(s.frequency);
            header.push_back(table.columnNames[c] + "_psd");
            values.push_back(s.power);
        }
        if (lowPass) {
            header.push_back("low_pass_gain");
            values.push_back(data::zeroPhaseGain(sections, values.front(), rate));
        }
        if (output == "-")
            data::writeCsv(std::cout, header, values);
        else
            data::writeCsvFile(output, header, values);
    }
    return Success;
}

}  // namespace sysid::cli
