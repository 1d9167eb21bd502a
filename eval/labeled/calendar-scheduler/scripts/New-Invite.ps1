param(
    [Parameter(Mandatory)][datetime]$Start,
    [ValidateRange(15, 480)][int]$DurationMinutes = 30,
    [Parameter(Mandatory)][ValidatePattern('^[^;\s]+@[^;\s]+(;[^;\s]+@[^;\s]+)*$')][string]$Attendees,
    [string]$Subject = 'Meeting'
)
$ErrorActionPreference = 'Stop'

$outlook = New-Object -ComObject Outlook.Application
$meeting = $outlook.CreateItem(1)
$meeting.MeetingStatus = 1
$meeting.Subject = $Subject
$meeting.Start = $Start
$meeting.Duration = $DurationMinutes
foreach ($a in $Attendees.Split(';')) { [void]$meeting.Recipients.Add($a) }
[void]$meeting.Recipients.ResolveAll()
$meeting.Send()
Write-Host "Invite sent for $Start"
