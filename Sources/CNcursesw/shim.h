// Wrappers for the parts of ncursesw that Swift cannot import: attribute bit macros,
// function-like macros, computed mouse masks, wcwidth and C globals.
#ifndef TERMDATA_CNCURSESW_SHIM_H
#define TERMDATA_CNCURSESW_SHIM_H

// Only ncurses's own switch for the wide-character API: defining _XOPEN_SOURCE here would
// change glibc's declarations for this module alone, and clash with other modules (Dispatch)
// that include the same system headers.
#define NCURSES_WIDECHAR 1
#include <locale.h>
#include <wchar.h>
#include <ncursesw/curses.h>

// Declared by <wchar.h> only under _XOPEN_SOURCE; the function is always in glibc.
extern int wcwidth(wchar_t c);
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

static inline attr_t shim_a_normal(void) { return A_NORMAL; }
static inline attr_t shim_a_bold(void) { return A_BOLD; }
static inline attr_t shim_a_reverse(void) { return A_REVERSE; }
static inline attr_t shim_a_underline(void) { return A_UNDERLINE; }
static inline attr_t shim_a_dim(void) { return A_DIM; }
static inline attr_t shim_a_italic(void) { return A_ITALIC; }
static inline int shim_key_f(int n) { return KEY_F(n); }
static inline int shim_wcwidth(wchar_t c) { return wcwidth(c); }
static inline mmask_t shim_all_mouse_events(void) { return ALL_MOUSE_EVENTS | REPORT_MOUSE_POSITION; }
static inline mmask_t shim_button1_pressed(void) { return BUTTON1_PRESSED; }
static inline mmask_t shim_button1_released(void) { return BUTTON1_RELEASED; }
static inline mmask_t shim_button1_clicked(void) { return BUTTON1_CLICKED; }
static inline mmask_t shim_button1_double_clicked(void) { return BUTTON1_DOUBLE_CLICKED; }
static inline mmask_t shim_button4_pressed(void) { return BUTTON4_PRESSED; }
static inline mmask_t shim_button5_pressed(void) { return BUTTON5_PRESSED; }
static inline WINDOW *shim_stdscr(void) { return stdscr; }
static inline int shim_lines(void) { return LINES; }
static inline int shim_cols(void) { return COLS; }
static inline int shim_color_pairs(void) { return COLOR_PAIRS; }
static inline int shim_colors(void) { return COLORS; }
static inline mmask_t shim_mouse_events(void) {
    return BUTTON1_PRESSED | BUTTON1_RELEASED | BUTTON1_CLICKED | BUTTON1_DOUBLE_CLICKED
        | BUTTON4_PRESSED | BUTTON5_PRESSED;
}

// A screen on the process's own standard output and input; NULL when the terminal type is unknown
// (initscr would print an error and exit instead).
static inline SCREEN *shim_newterm(void) { return newterm(NULL, stdout, stdin); }

// Declared in <term.h>, whose macros (lines, columns...) would leak into Swift; in libtinfo.
extern char *tigetstr(const char *capname);

// Whether the terminal type can move the cursor to a position ("cup"): a dumb terminal cannot
// draw a screen at all.
static inline int shim_can_address_cursor(void) {
    char *cup = tigetstr("cup");
    return cup != NULL && cup != (char *)-1;
}

static inline void shim_signal_default(int sig) { signal(sig, SIG_DFL); }

// Give the terminal back when the process dies of a fatal signal (a Swift runtime trap raises
// SIGILL or SIGTRAP), then die of the same signal.
static void shim_restore_and_reraise(int sig) {
    if (!isendwin()) endwin();
    signal(sig, SIG_DFL);
    raise(sig);
}

static inline void shim_install_crash_handlers(void) {
    signal(SIGSEGV, shim_restore_and_reraise);
    signal(SIGBUS, shim_restore_and_reraise);
    signal(SIGILL, shim_restore_and_reraise);
    signal(SIGTRAP, shim_restore_and_reraise);
    signal(SIGABRT, shim_restore_and_reraise);
    signal(SIGFPE, shim_restore_and_reraise);
}

static inline void shim_remove_crash_handlers(void) {
    signal(SIGSEGV, SIG_DFL);
    signal(SIGBUS, SIG_DFL);
    signal(SIGILL, SIG_DFL);
    signal(SIGTRAP, SIG_DFL);
    signal(SIGABRT, SIG_DFL);
    signal(SIGFPE, SIG_DFL);
}

static void shim_endwin_at_exit(void) {
    if (stdscr != NULL && !isendwin()) endwin();
}

static inline void shim_register_atexit(void) { atexit(shim_endwin_at_exit); }

#endif
