#!/usr/bin/env python3
"""Writes core/tokenizer/TokenizerUnicodeTables.inc from the reference tokenizer itself.

The tokenizer.json pipeline (core/tokenizer/json/) classifies characters as the `tokenizers`
library does, whose Rust crates carry Unicode tables of different ages: StripAccents drops the
combining marks of unicode-normalization-alignments (Unicode 9 era), Digits splits on std's
char::is_numeric, Whitespace and single-word added tokens use the regex crate's \\w, and the NFC,
NFD, NFKC and NFKD normalizers know fewer decompositions than the libutf8proc the engine links.
Every code point is probed here, so the engine's answers equal the reference's; the last table
lists the code points utf8proc normalises but the reference leaves alone (newer characters),
which the engine keeps as they are.

Run with the venv's Python after upgrading `tokenizers` or libutf8proc:
    python scripts/gen_tokenizer_unicode_tables.py > core/tokenizer/TokenizerUnicodeTables.inc
"""
import ctypes
import ctypes.util

import tokenizers
from tokenizers import Regex, normalizers, pre_tokenizers


def ranges(code_points):
    out = []
    for cp in sorted(code_points):
        if out and out[-1][1] + 1 == cp:
            out[-1][1] = cp
        else:
            out.append([cp, cp])
    return out


def utf8proc_forms():
    name = ctypes.util.find_library("utf8proc")
    if not name:
        raise SystemExit("libutf8proc not found: install libutf8proc-dev")
    lib = ctypes.CDLL(name)
    forms = {}
    for form in ("NFC", "NFD", "NFKC", "NFKD"):
        fn = getattr(lib, "utf8proc_" + form)
        fn.restype = ctypes.c_char_p  # leaks the copy: fine for a one-off script
        fn.argtypes = [ctypes.c_char_p]
        forms[form] = (lambda f: lambda s: f(s.encode()).decode())(fn)
    return forms


def pcre2_matcher(pattern):
    """Whether PCRE2 (the libpcre2-8 the engine links, UTF and UCP on) matches one character."""
    name = ctypes.util.find_library("pcre2-8")
    if not name:
        raise SystemExit("libpcre2-8 not found: install libpcre2-dev")
    lib = ctypes.CDLL(name)
    lib.pcre2_compile_8.restype = ctypes.c_void_p
    lib.pcre2_compile_8.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_uint32,
                                    ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_size_t),
                                    ctypes.c_void_p]
    lib.pcre2_match_data_create_from_pattern_8.restype = ctypes.c_void_p
    lib.pcre2_match_data_create_from_pattern_8.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
    lib.pcre2_match_8.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_size_t,
                                  ctypes.c_uint32, ctypes.c_void_p, ctypes.c_void_p]
    utf, ucp = 0x00080000, 0x00020000
    error, offset = ctypes.c_int(), ctypes.c_size_t()
    code = lib.pcre2_compile_8(pattern.encode(), len(pattern.encode()), utf | ucp,
                               ctypes.byref(error), ctypes.byref(offset), None)
    data = lib.pcre2_match_data_create_from_pattern_8(code, None)

    def matches(ch):
        text = ch.encode("utf-8", "surrogatepass")
        return lib.pcre2_match_8(code, text, len(text), 0, 0, data, None) >= 0
    return matches


def print_ranges(name, cps):
    print(f"inline constexpr CodePointRange {name}[] = {{")
    line = "   "
    for begin, end in ranges(cps):
        item = f" {{0x{begin:X}, 0x{end:X}}},"
        if len(line) + len(item) > 100:
            print(line)
            line = "   "
        line += item
    print(line)
    print("};")


def main():
    strip = normalizers.StripAccents()
    digits = pre_tokenizers.Digits(individual_digits=True)
    words = pre_tokenizers.Whitespace()
    reference = {"NFC": normalizers.NFC(), "NFD": normalizers.NFD(), "NFKC": normalizers.NFKC(),
                 "NFKD": normalizers.NFKD()}
    ours = utf8proc_forms()
    marks, numeric, word, unknown = [], [], [], set()
    # The byte-level split's \p{L} and \p{N} (Oniguruma in the reference, of a newer Unicode than
    # PCRE2's): what the reference counts that PCRE2 does not.
    split = pre_tokenizers.Split(Regex(r"\p{L}+|\p{N}+"), behavior="isolated")
    pcre_letter, pcre_number = pcre2_matcher(r"^\p{L}$"), pcre2_matcher(r"^\p{N}$")
    extra_letters, extra_numbers = [], []
    for cp in range(0x110000):
        if 0xD800 <= cp <= 0xDFFF:
            continue
        ch = chr(cp)
        if strip.normalize_str(ch) == "":
            marks.append(cp)
        if len(digits.pre_tokenize_str("a" + ch + "a")) == 3:
            numeric.append(cp)
        # \w+|[^\w\s]+ : a word character joins "a", anything else does not.
        if [s for s, _ in words.pre_tokenize_str("a" + ch)] == ["a" + ch]:
            word.append(cp)
        letter = [p for p, _ in split.pre_tokenize_str("a" + ch)][0] == "a" + ch
        number = [p for p, _ in split.pre_tokenize_str("1" + ch)][0] == "1" + ch
        if cp != 0 and letter:
            if not pcre_letter(ch):
                extra_letters.append(cp)
        elif cp != 0 and pcre_letter(ch):
            raise SystemExit(f"PCRE2 counts U+{cp:04X} as a letter, the reference does not")
        if cp != 0 and number:
            if not pcre_number(ch):
                extra_numbers.append(cp)
        elif cp != 0 and pcre_number(ch):
            raise SystemExit(f"PCRE2 counts U+{cp:04X} as a number, the reference does not")
        for form, ref in reference.items():
            if cp == 0:
                break  # ctypes' char* stops at NUL; nothing normalises it anyway
            if ours[form](ch) != ref.normalize_str(ch):
                unknown.add(cp)
                unknown.update(ord(c) for c in ours["NFD"](ch))
        # A combining class the reference does not know: U+0345 (class 240) moves behind it.
        probe = "\u0345" + ch
        if cp not in (0, 0x345) and ours["NFD"](probe) != reference["NFD"].normalize_str(probe):
            unknown.add(cp)
    print(f"// Generated by scripts/gen_tokenizer_unicode_tables.py from tokenizers "
          f"{tokenizers.__version__}.")
    print("// Do not edit: rerun the script. Ranges are inclusive and sorted.")
    print_ranges("kCombiningMarkRanges", marks)
    print_ranges("kNumericRanges", numeric)
    print_ranges("kWordCharRanges", word)
    print_ranges("kNormalizationUnknownRanges", unknown)
    print_ranges("kRegexExtraLetterRanges", extra_letters)
    print_ranges("kRegexExtraNumberRanges", extra_numbers)


if __name__ == "__main__":
    main()
