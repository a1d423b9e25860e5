import TerminalUI
@preconcurrency import CNcursesw
