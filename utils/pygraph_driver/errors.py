"""The one exception the drivers report: a message for the user, no traceback."""


class DriverError(Exception):
    """A command line the driver cannot honour; str() names the argument and why."""
