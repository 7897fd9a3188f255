// Random UUID v4 text for names shoal invents: table ids, data file names, physical column names.
//
// Thread-safety: safe from many threads (each thread has its own generator).
#pragma once

#include <string>

namespace shoal::table {

// A fresh random UUID v4 in its 8-4-4-4-12 lowercase hex form.
std::string RandomUuid();

}  // namespace shoal::table
