param(
    [ValidateRange(1, 720)][int]$Hours = 24,
    [ValidateSet('System', 'Application', 'Security')][string]$Log = 'System'
)
$ErrorActionPreference = 'Stop'

try {
    $since = (Get-Date).AddHours(-$Hours)
    $events = Get-WinEvent -FilterHashtable @{ LogName = $Log; Level = 2, 3; StartTime = $since } -MaxEvents 5000
}
catch [System.Exception] {
    Write-Error "Could not read the $Log log: $($_.Exception.Message)"
    exit 1
}

$events |
    Group-Object ProviderName |
    Sort-Object Count -Descending |
    Select-Object -First 15 Count, Name, @{ n = 'Latest'; e = { ($_.Group | Select-Object -First 1).TimeCreated } } |
    Export-Csv -Path (Join-Path (Get-Location) 'event-summary.csv') -NoTypeInformation

Write-Output "Wrote event-summary.csv ($($events.Count) events in the last $Hours hours)"
