// Deliberately empty: this module exists to link the system ICU (libicu-dev).
// Declarations come through ICUShim's C files only; see README.md, "Design".
#pragma once
