#include "termdata_regex.h"
#include <stdlib.h>
#include <unicode/uregex.h>

struct termdata_regex {
    URegularExpression *regex;
};

/* The engine's time limit, in its steps (a few milliseconds each): a pattern that takes
   longer on one value gives up with U_REGEX_TIME_OUT, which is reported, never taken for
   "no match". */
static const int32_t time_limit = 2000;

termdata_regex *termdata_regex_compile(const uint16_t *pattern, int32_t length, uint32_t flags) {
    UErrorCode status = U_ZERO_ERROR;
    UParseError parse;
    URegularExpression *regex = uregex_open((const UChar *)pattern, length, flags, &parse, &status);
    if (U_FAILURE(status)) return NULL;
    uregex_setTimeLimit(regex, time_limit, &status);
    if (U_FAILURE(status)) { uregex_close(regex); return NULL; }
    termdata_regex *result = malloc(sizeof *result);
    if (!result) { uregex_close(regex); return NULL; }
    result->regex = regex;
    return result;
}

int32_t termdata_regex_matches(termdata_regex *regex, const uint16_t *text, int32_t length) {
    UErrorCode status = U_ZERO_ERROR;
    uregex_setText(regex->regex, (const UChar *)text, length, &status);
    if (U_FAILURE(status)) return -2;
    UBool matched = uregex_matches(regex->regex, 0, &status);
    /* The text is the caller's: the expression must not keep pointing at it. */
    UErrorCode reset = U_ZERO_ERROR;
    static const UChar empty[1] = {0};
    uregex_setText(regex->regex, empty, 0, &reset);
    if (status == U_REGEX_TIME_OUT || status == U_REGEX_STACK_OVERFLOW) return -1;
    if (U_FAILURE(status)) return -2;
    return matched ? 1 : 0;
}

void termdata_regex_free(termdata_regex *regex) {
    if (!regex) return;
    uregex_close(regex->regex);
    free(regex);
}
