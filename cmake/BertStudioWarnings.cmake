# bert_studio_harden(<target>): the project's warning set, -Werror when asked (the debug preset
# asks), and the sanitizer / coverage instrumentation options.
function(bert_studio_harden target)
    target_compile_options(${target} PRIVATE
        -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wold-style-cast -Wcast-align
        -Woverloaded-virtual -Wimplicit-fallthrough)
    # GCC 12 reports a false -Wrestrict in std::string's operator+ at -O2/-O3 (GCC bug 105651).
    if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
        target_compile_options(${target} PRIVATE -Wno-restrict)
    endif()
    if(BERT_STUDIO_WERROR)
        target_compile_options(${target} PRIVATE -Werror)
    endif()
    if(BERT_STUDIO_SANITIZE)
        target_compile_options(${target} PRIVATE -fsanitize=address,undefined -fno-omit-frame-pointer)
        target_link_options(${target} PRIVATE -fsanitize=address,undefined)
    endif()
    if(BERT_STUDIO_COVERAGE)
        target_compile_options(${target} PRIVATE --coverage)
        target_link_options(${target} PRIVATE --coverage)
    endif()
endfunction()
