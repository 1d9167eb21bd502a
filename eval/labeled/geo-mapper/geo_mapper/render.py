"""Render points.csv (name, lat, lon) to a Leaflet map."""
import csv
import sys

import folium
from folium.plugins import MarkerCluster


def main():
    points = list(csv.DictReader(open(sys.argv[1], newline="", encoding="utf-8")))
    lat = sum(float(p["lat"]) for p in points) / len(points)
    lon = sum(float(p["lon"]) for p in points) / len(points)
    m = folium.Map(location=[lat, lon], zoom_start=6)
    cluster = MarkerCluster().add_to(m)
    for p in points:
        folium.Marker([float(p["lat"]), float(p["lon"])], popup=p["name"]).add_to(cluster)
    m.save(sys.argv[2])


if __name__ == "__main__":
    main()
