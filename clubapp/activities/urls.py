from django.urls import path

from clubapp.activities.views import checks, duty, home, plans, records, tournaments

app_name = "activities"

# Each page module lists its own paths; this file only puts them together.
urlpatterns = [
    path("", home.home, name="home"),
    *plans.urlpatterns,
    *records.urlpatterns,
    *tournaments.urlpatterns,
    *duty.urlpatterns,
    *checks.urlpatterns,
]
