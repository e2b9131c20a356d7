"""The button and LED panel: protocol, host driver with reconnect, and the software twin."""
