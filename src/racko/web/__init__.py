"""The web front end: ``racko serve``, Rack-O in the browser with friends and computer players."""
