// libFuzzer target: arbitrary bytes as a SQL script. Parsing must end in statements or an error,
// never a crash or a sanitizer report; every parsed statement must print to text that parses back
// to the same printed form (the printer and the parser agree).

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "floe/sql/syntax/parser.h"
#include "floe/sql/syntax/printer.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view script(reinterpret_cast<const char*>(data), size);
  (void)floe::sql::SplitStatements(script);
  auto statements = floe::sql::ParseScript(script);
  if (!statements) return 0;
  for (const floe::sql::Statement& statement : *statements) {
    std::string printed = floe::sql::PrintStatement(statement);
    auto again = floe::sql::ParseStatement(printed);
    if (!again) {
      std::fprintf(stderr, "printed form does not parse: %s\n%s\n", printed.c_str(),
                   again.error().message().c_str());
      std::abort();
    }
    std::string reprinted = floe::sql::PrintStatement(*again);
    if (reprinted != printed) {
      std::fprintf(stderr, "print is not stable:\n%s\n%s\n", printed.c_str(), reprinted.c_str());
      std::abort();
    }
  }
  return 0;
}
