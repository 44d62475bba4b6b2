DATETIME_FORMAT = r"j. F Y \u\m H:i"
