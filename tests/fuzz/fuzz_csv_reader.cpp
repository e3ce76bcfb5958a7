// CSV text as `--data` and the import dialog read it: with the default options, and with the
// format detectCsvFormat proposes (what the dialog offers). DataError is the one documented
// outcome of bad text; csvLayout, previewFields and detectCsvFormat never throw.
#include "engine/data/CsvReader.h"
#include "engine/data/DataError.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace {

void parse(std::string_view text, const sysid::data::CsvOptions& options)
{
    try {
        sysid::data::parseCsv(text, "fuzz.csv", options);
    } catch (const sysid::data::DataError&) {
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    parse(text, {});
    sysid::data::CsvOptions detected;
    static_cast<sysid::data::CsvFormat&>(detected) = sysid::data::detectCsvFormat(text);
    parse(text, detected);
    const sysid::data::CsvLayout layout = sysid::data::csvLayout(text, detected);
    if (layout.headerLine > 0)
        sysid::data::previewFields(layout.lines[static_cast<std::size_t>(layout.headerLine - 1)], layout.separator);
    return 0;
}
